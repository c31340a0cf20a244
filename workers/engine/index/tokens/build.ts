// Token-count phase of `assay index`: every documents file not yet counted with the index's tokenizer, on the worker pool, committed file by file.
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { AssayError } from '../../errors.js';
import { workerEntry } from '../../jobs/entry.js';
import { runPool } from '../../jobs/pool.js';
import type { TextTokenizer } from '../../tokenize/tokenizer/types.js';
import { getMeta, hasTokenCounts, indexPath, openDatabase, setMeta, type DB } from '../store/db.js';
import { countFile, type CountInit, type CountProgress, type CountTask, type FileCounts } from './count.js';
import { pruneCounts, recordedTokenizer, recordTokenizer, writeCounts } from './store.js';
import { openCountingTokenizer, sameCounts, type CountingTokenizer } from './tokenizer.js';

export interface TokenCountProgress {
  done: number;
  total: number;
  unit: 'docs';
  filesDone: number;
  filesTotal: number;
  docs: number;
  /** Uncompressed bytes of the documents counted so far. */
  bytes: number;
}

export interface TokenCountOptions {
  /** Opened already (openCountingTokenizer); without it, counts follow the tokenizer the index records, if any. */
  counter?: { tokenizer: TextTokenizer; info: CountingTokenizer };
  signal?: AbortSignal | undefined;
  onProgress?: ((p: TokenCountProgress) => void) | undefined;
  log?: ((line: string) => void) | undefined;
  checkPath?: ((path: string, field: string) => void) | undefined;
  /** Counting processes (default one per core; small inputs are counted in this process). */
  processes?: number | undefined;
}

export interface TokenCountResult {
  tokenizer: CountingTokenizer;
  /** Documents and tokens counted in this run, in `files` files. */
  docs: number;
  tokens: number;
  files: number;
  /** Files whose counts were still valid. */
  skippedFiles: number;
  /** Indexed documents left without a count (their files cannot be mixed, or changed while counting). */
  uncounted: number;
  ms: number;
}

/** Below this many documents, forking counters and loading the tokenizer in each costs more than it saves. */
const POOL_MIN_DOCS = 20_000;

/**
 * Brings the index's token counts up to date; null when there is nothing to count with (no tokenizer given
 * or recorded, or the recorded one cannot be loaded as it was: said in the log).
 */
export async function countTokens(root: string, opts: TokenCountOptions = {}): Promise<TokenCountResult | null> {
  const started = performance.now();
  const path = indexPath(root);
  if (!existsSync(path)) throw new AssayError('CONFIG', `${root} has no index yet; build it with \`assay index ${root}\``);
  const db = openDatabase(path);
  try {
    // The attribute build upgrades a schema-1 index; counting into one it has not touched would fail on a missing table.
    if (!hasTokenCounts(db)) throw new AssayError('CONFIG', `the index at ${path} predates token counts; update it with \`assay index ${root}\` first`, { file: path });
    const info = opts.counter?.info ?? recordedTokenizer(db);
    if (info === null) return null;
    const { files, counted, skipped } = plan(db, info, opts.log);
    const tasks: CountTask[] = files.filter((f) => counted.get(f.id) !== f.hash).map((f) => ({ root, file: f.id, path: f.path, hash: f.hash, docs: f.docs }));
    // The recorded tokenizer is loaded (and checked unchanged) only when there is something to count.
    const counter = opts.counter ?? (tasks.length > 0 ? await recorded(info, opts) : { tokenizer: null, info });
    if (counter === null) return null;
    for (const t of tasks) opts.checkPath?.(join(root, t.path), 'documents');
    const total = tasks.reduce((n, t) => n + t.docs, 0);
    const progress: TokenCountProgress = { done: 0, total, unit: 'docs', filesDone: 0, filesTotal: tasks.length, docs: 0, bytes: 0 };
    opts.onProgress?.({ ...progress });
    const result: TokenCountResult = { tokenizer: counter.info, docs: 0, tokens: 0, files: 0, skippedFiles: files.length - tasks.length, uncounted: skipped, ms: 0 };
    const onProgress = (p: CountProgress): void => {
      progress.done += p.docs;
      progress.docs += p.docs;
      progress.bytes += p.bytes;
      opts.onProgress?.({ ...progress });
    };
    const onDone = (r: FileCounts): void => {
      progress.filesDone++;
      if (r.counts === null) {
        result.uncounted += tasks.find((t) => t.file === r.file)?.docs ?? 0;
        opts.log?.(`token counts: ${join(root, files.find((f) => f.id === r.file)?.path ?? '')} ${r.why ?? 'was not counted'}; its documents keep estimates until \`assay index\` reads it again`);
      } else {
        writeCounts(db, { ...r, counts: r.counts });
        result.docs += r.counts.length;
        result.tokens += r.tokens;
        result.files++;
      }
      opts.onProgress?.({ ...progress });
    };
    await run(tasks, total, counter, onProgress, onDone, opts);
    // Open previews compare generations to know they are stale: new counts change their token figures.
    if (result.files > 0) setMeta(db, 'generation', String(Number(getMeta(db, 'generation') ?? '0') + 1));
    result.ms = Math.round(performance.now() - started);
    return result;
  } finally {
    db.close();
  }
}

/** The tokenizer the index records, loaded again; null (with a note) when it is gone or no longer the same. */
async function recorded(was: CountingTokenizer, { log, checkPath }: TokenCountOptions): Promise<{ tokenizer: TextTokenizer; info: CountingTokenizer } | null> {
  // The index is part of the dataset, which may come from someone else: its tokenizer path is confined like any input (the app).
  const again = await Promise.resolve()
    .then(() => isAbsolute(was.name) && checkPath?.(was.name, 'tokenizer'))
    .then(() => openCountingTokenizer(was.name, was.eos, '/'))
    .catch((e: Error) => e);
  const why = again instanceof Error ? again.message : sameCounts(again.info, was) ? null : `${was.name} changed since the index counted with it`;
  if (why === null) return again as { tokenizer: TextTokenizer; info: CountingTokenizer };
  log?.(`token counts: not updated (${why}); new or changed files keep estimates until \`assay index --tokenizer NAME|PATH\` counts them`);
  return null;
}

/** Records the tokenizer (a different one drops every count), prunes stale rows; files mixable as they are, and the documents of the others. */
function plan(db: DB, info: CountingTokenizer, log: TokenCountOptions['log']): { files: { id: number; path: string; hash: string; docs: number }[]; counted: Map<number, string>; skipped: number } {
  let counted = new Map<number, string>();
  db.transaction(() => {
    const was = recordedTokenizer(db);
    const keep = was !== null && sameCounts(was, info);
    if (was !== null && !keep) log?.(`token counts: recounting every file with ${info.name} (the index counted with ${was.name}${was.sha256 === info.sha256 ? `, EOS ${was.eos}` : ''})`);
    recordTokenizer(db, info, keep);
    counted = pruneCounts(db);
  })();
  const rows = db.prepare('SELECT id, path, hash, docs, problem FROM files WHERE docs > 0 ORDER BY path').all() as { id: number; path: string; hash: string; docs: number; problem: string | null }[];
  // The mixer refuses a file with a problem: no output has its tokens, and its documents keep estimates.
  const skipped = rows.filter((r) => r.problem !== null).reduce((n, r) => n + r.docs, 0);
  return { files: rows.filter((r) => r.problem === null), counted, skipped };
}

async function run(
  tasks: CountTask[],
  total: number,
  counter: { tokenizer: TextTokenizer | null; info: CountingTokenizer },
  onProgress: (p: CountProgress) => void,
  onDone: (r: FileCounts) => void,
  opts: TokenCountOptions,
): Promise<void> {
  if (tasks.length === 0) return;
  const processes = Math.max(1, Math.min(opts.processes ?? cpus().length, tasks.length));
  const here = counter.tokenizer;
  if (here !== null && (processes === 1 || (opts.processes === undefined && total < POOL_MIN_DOCS))) {
    for (const t of tasks) {
      if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'token counting cancelled');
      onDone(await countFile(t, here, counter.info.eos, { signal: opts.signal, onProgress }));
    }
    return;
  }
  // Largest files first, so no process is left with a big one at the end.
  const order = tasks.map((t, i) => i).sort((a, b) => (tasks[b] as CountTask).docs - (tasks[a] as CountTask).docs);
  await runPool<CountInit, CountTask, FileCounts, CountProgress>(
    order.map((i) => tasks[i] as CountTask),
    {
      entry: workerEntry('count-worker', 'index/tokens/worker.ts'),
      processes,
      init: { name: counter.info.name, eos: counter.info.eos },
      signal: opts.signal,
      onProgress: (_i, p) => onProgress(p),
      onDone: (_i, r) => onDone(r),
      onLog: opts.log,
    },
  );
}
