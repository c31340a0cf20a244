// `assay index DATASET_ROOT`: build or refresh the attribute index, token counts (--tokenizer), then the search table over the texts, with progress and Ctrl-C.
import { resolve } from 'node:path';
import { buildIndex, indexPath, searchPath, type BuildProgress, type IndexOptions, type IndexPhase, type IndexResult } from '../index/index.js';
import type { ProgressReport } from '../jobs/progress.js';
import { intOption, UsageError, type ParsedArgs } from './args.js';
import { createProgressPrinter } from './progress-bar.js';
import { stderrLine } from './stderr.js';

/** `extra.extracted`: files a Slurm run's array tasks read (the final step of `assay index --executor slurm`). */
export async function indexCommand(args: ParsedArgs, signal: AbortSignal, extra: Pick<IndexOptions, 'extracted'> = {}): Promise<number> {
  const rootArg = args.positionals[0];
  if (rootArg === undefined || args.positionals.length > 1) throw new UsageError('index needs one dataset folder: assay index DATASET_ROOT');
  const root = resolve(rootArg);
  const quiet = args.options.get('quiet') === true;
  const search = args.options.get('no-search') !== true;
  const tokenizer = args.options.get('tokenizer');
  if (tokenizer === true) throw new UsageError('--tokenizer needs a tokenizer.json (or its folder) or a built-in name (gpt2)');
  // One progress bar per phase: each has its own total (files to read, documents to count, texts not yet searchable).
  const printers = { index: createProgressPrinter(process.stderr, quiet), tokens: createProgressPrinter(process.stderr, quiet), search: createProgressPrinter(process.stderr, quiet) };
  const started = { index: performance.now(), tokens: 0, search: 0 };
  let phase: IndexPhase = 'index';
  const onProgress = (p: BuildProgress & { phase: IndexPhase; bytes?: number }): void => {
    if (p.phase !== phase) {
      printers[phase].done();
      phase = p.phase;
      started[phase] = performance.now();
    }
    const elapsedSec = (performance.now() - started[p.phase]) / 1000;
    const frac = p.total > 0 ? p.done / p.total : 0;
    // The count phase measures its work in documents and reports the bytes it tokenized beside them.
    const bytes = p.bytes ?? p.done;
    const report: ProgressReport = {
      stage: p.phase, done: p.done, total: p.total, unit: p.phase === 'tokens' ? 'docs' : 'bytes',
      filesDone: p.filesDone ?? 0, filesTotal: p.filesTotal ?? 0, docs: p.docs ?? 0, bytes,
      bytesPerSec: elapsedSec > 0 ? bytes / elapsedSec : 0, etaSec: frac > 0.001 ? (elapsedSec * (1 - frac)) / frac : null, elapsedSec,
    };
    printers[p.phase].update(report);
  };
  const done = (): void => {
    for (const p of Object.values(printers)) p.done();
  };
  try {
    const r = await buildIndex(root, {
      signal, processes: intOption(args, 'processes'), log: stderrLine, onProgress, search, ...extra,
      ...(typeof tokenizer === 'string' ? { tokenizer, eosTokenId: intOption(args, 'tokenizer.eos_token_id', 0) } : {}),
    });
    done();
    if (!quiet) {
      const rate = r.ms > 0 && r.skippedFiles < r.files ? Math.round((r.docs / r.ms) * 1000) : 0;
      const s = r.search;
      process.stdout.write(
        `indexed ${r.docs.toLocaleString('en-US')} documents in ${r.files} file(s) (${r.skippedFiles} unchanged, not re-read), ` +
          `${r.attributeSets} attribute set(s) → ${indexPath(root)} in ${(r.ms / 1000).toFixed(1)} s` +
          `${rate > 0 ? ` (${rate.toLocaleString('en-US')} docs/s)` : ''}\n` +
          tokensLine(r) +
          (s
            ? `search: ${s.docs.toLocaleString('en-US')} texts from ${s.files - s.skippedFiles} file(s) (${s.skippedFiles} unchanged) → ${searchPath(root)} in ${(s.ms / 1000).toFixed(1)} s` +
              `${s.docs > 0 && s.ms > 0 ? ` (${Math.round((s.docs / s.ms) * 1000).toLocaleString('en-US')} docs/s)` : ''}\n`
            : 'search: not updated (--no-search); searches fail until `assay index` runs without it\n') +
          (r.problems?.length ? `${r.problems.length} file(s) cannot be mixed as they are (see above); previews of streams reading them fail the same way\n` : ''),
      );
    }
    return 0;
  } catch (e) {
    done();
    throw e;
  }
}

/** What the count phase did, when the index counts tokens. */
function tokensLine(r: IndexResult): string {
  const t = r.tokens;
  if (t === undefined) return '';
  const n = (x: number): string => x.toLocaleString('en-US');
  const rate = t.docs > 0 && t.ms > 0 ? ` (${n(Math.round((t.docs / t.ms) * 1000))} docs/s)` : '';
  const left = t.uncounted > 0 ? `; ${n(t.uncounted)} document(s) in files that cannot be mixed keep estimates` : '';
  return `tokens: ${n(t.docs)} documents counted with ${t.tokenizer.name} (EOS ${t.tokenizer.eos}) → ${n(t.tokens)} tokens, ${t.files} file(s) (${t.skippedFiles} unchanged) in ${(t.ms / 1000).toFixed(1)} s${rate}${left}\n`;
}
