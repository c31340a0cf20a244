// `assay demo --out DIR`: builds the demo workspace with progress lines, then says how to open it.
import { intOption, stringOption, UsageError, type ParsedArgs } from '../cli/args.js';
import { createProgressPrinter } from '../cli/progress-bar.js';
import { buildDemo } from './build.js';

export async function demoCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const out = stringOption(args, 'out');
  if (!out) throw new UsageError('demo needs --out DIR (a new folder for the demo workspace)');
  const quiet = args.options.get('quiet') === true;
  const printer = createProgressPrinter(process.stderr, quiet);
  const log = (line: string): void => {
    // On a terminal the progress bar owns the current line: clear it first.
    if (!quiet) process.stderr.write(`${process.stderr.isTTY ? '\r\x1b[2K' : ''}demo: ${line}\n`);
  };
  const s = await buildDemo({ out, docs: intOption(args, 'docs'), seed: intOption(args, 'seed', 0), signal, log, onProgress: printer.update });
  printer.done();
  if (!quiet) {
    const planted = Object.entries(s.planted)
      .filter(([k]) => k !== 'clean')
      .map(([k, v]) => `${k.replace(/_/g, ' ')} ${v}`)
      .join(', ');
    const secs = s.stages.reduce((a, st) => a + st.sec, 0);
    process.stdout.write(
      `demo workspace ready in ${s.out} (${s.docs.toLocaleString('en-US')} documents in ${s.files.length} files, ${secs.toFixed(1)} s)\n` +
        `planted: ${planted}\n` +
        `next:  assay serve --workspace ${s.out}     (or: assay mix -c recipes/demo.yaml, run inside it)\n`,
    );
  }
  return 0;
}
