// `assay mix -c recipe.yaml`: run a Dolma mixer recipe with progress and a per-stream summary.
import { readFile } from 'node:fs/promises';
import { locateConfigError } from '../index/recipe/errors.js';
import { RecipeLocator } from '../index/recipe/locate.js';
import type { MixSummary } from '../mix/mixer.js';
import { loadMixerConfig } from '../mix/config.js';
import { runMix } from '../mix/mixer.js';
import { intOption, stringOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter, formatBytes } from './progress-bar.js';
import { stderrLine } from './stderr.js';

export async function mixCommand(args: ParsedArgs, signal: AbortSignal): Promise<number> {
  const configPath = stringOption(args, 'config');
  if (configPath === undefined) throw new UsageError('mix needs a recipe: assay mix -c recipe.yaml');
  const config = await loadMixerConfig(configPath);
  const quiet = args.options.get('quiet') === true;
  if (args.options.get('dryrun') === true || config.dryrun) {
    process.stdout.write(JSON.stringify(config, null, 2) + '\n');
    return 0;
  }
  const printer = createProgressPrinter(process.stderr, quiet);
  try {
    const summary = await runMix(config, {
      processes: intOption(args, 'processes'),
      skipBadLines: args.options.get('skip-bad-lines') === true,
      ledger: args.options.get('no-ledger') !== true,
      signal,
      onProgress: printer.update,
      log: stderrLine,
    });
    printer.done();
    if (!quiet) process.stdout.write(formatSummary(summary));
    return 0;
  } catch (e) {
    printer.done();
    // A rule that does not compile names its field; add the recipe's file and line, as the preview does.
    throw locateConfigError(e, configPath, new RecipeLocator(await readFile(configPath, 'utf8').catch(() => '')));
  }
}

export function formatSummary(s: MixSummary): string {
  const lines: string[] = [];
  for (const st of s.streams) {
    const pct = (n: number): string => (st.docs.read > 0 ? `${((100 * n) / st.docs.read).toFixed(2)}%` : '-');
    lines.push(`stream ${st.name}: ${st.files} file(s) → ${st.shards.length} shard(s) in ${st.output}`);
    lines.push(`  documents  read ${st.docs.read.toLocaleString('en-US')}  kept ${st.docs.kept.toLocaleString('en-US')} (${pct(st.docs.kept)})  dropped ${st.docs.dropped.toLocaleString('en-US')} (${pct(st.docs.dropped)})`);
    lines.push(`  bytes      in ${formatBytes(st.bytes.in)}  out ${formatBytes(st.bytes.out)}`);
    if (st.badLines.count > 0) lines.push(`  skipped bad lines: ${st.badLines.count} (first: ${st.badLines.samples[0] ?? ''})`);
    if (st.droppedBy.length > 0) {
      lines.push('  dropped by (first rule that fired):');
      for (const d of st.droppedBy) lines.push(`    ${String(d.docs).padStart(10)}  ${pct(d.docs).padStart(7)}  ${d.key}  ${d.label}`);
    }
    lines.push(`  summary    ${st.summaryFile}`);
  }
  const mbps = s.streams.reduce((a, st) => a + st.bytes.in, 0) / 1e6 / Math.max(s.elapsedSec, 1e-9);
  lines.push(`done in ${s.elapsedSec.toFixed(1)} s with ${s.processes} process(es), ${mbps.toFixed(1)} MB/s`);
  return lines.join('\n') + '\n';
}
