// `assay tokens`: check everything first, shuffle and group the inputs, tokenize groups in-process or on a pool, publish together.
import { stat } from 'node:fs/promises';
import { endianness } from 'node:os';
import { basename, isAbsolute, resolve } from 'node:path';
import { AssayError } from '../errors.js';
import { expandGlobs } from '../io/index.js';
import { lockOutputFolders } from '../io/output-lock.js';
import { workerEntry } from '../jobs/entry.js';
import { runPool } from '../jobs/pool.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { writeTokensLedger } from '../ledger/tokens.js';
import { sha256File, sourceCounts, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import type { Dtype } from './documents.js';
import { tokenizeGroup, type GroupResult, type GroupSettings, type GroupTask, type SourceCount } from './group.js';
import { groupFiles, groupPrefix } from './plan.js';
import { discardRun, previousOutputs, publishParts, summaryPath, writeSummary } from './publish.js';
import { seededRandom, shuffleInPlace } from './shuffle.js';
import { loadTokenizer, requiredDtype, type TextTokenizer } from './tokenizer/load.js';
import type { PartInfo } from './writer.js';

export interface TokensOptions {
  documents: string[];
  destination: string;
  tokenizer: {
    /** A tokenizer.json (or a folder holding one), or a built-in name (`gpt2`). */
    nameOrPath: string;
    bosTokenId?: number | null;
    eosTokenId?: number | null;
    /** Not written into outputs (as in Dolma); checked against the vocabulary and recorded. */
    padTokenId?: number | null;
    segmentBeforeTokenization?: boolean;
    encodeSpecialTokens?: boolean;
  };
  /** Must be the smallest unsigned type holding every id (default uint16, as Dolma). */
  dtype?: Dtype;
  /** Tokens per output file (default 1 GiB = 1,073,741,824, as Dolma). */
  maxSize?: number;
  batchSize?: number;
  ringSize?: number;
  sampleRingProp?: boolean;
  filesPerProcess?: number;
  seed?: number;
  processes?: number;
  fields?: { textFieldName?: string; idFieldName?: string | null; idFieldType?: 'str' | 'int' };
  skipBadLines?: boolean;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
}

export interface TokensSummary {
  destination: string;
  tokenizer: { name: string; engine: TextTokenizer['engine']; vocabSize: number; bos: number | null; eos: number | null; pad: number | null };
  dtype: Dtype;
  maxSize: number;
  seed: number;
  inputs: number;
  /** Uncompressed bytes of JSONL read. */
  bytes: number;
  docs: number;
  tokens: number;
  rawTokens: number;
  skippedEmpty: number;
  badLines: number;
  /** Per document `source` field ('' when absent): documents, tokens written, tokens of the texts alone. */
  perSource: Record<string, SourceCount>;
  /** Output pairs as file names inside `destination`, in group then file order. */
  outputs: { npy: string; csv: string; docs: number; tokens: number; oversized: boolean }[];
  groups: number;
  processes: number;
  elapsedSec: number;
}

/** What a pool worker needs to tokenize groups on its side. */
export interface TokensWorkerInit {
  tokenizer: { nameOrPath: string; encodeSpecialTokens: boolean };
  settings: GroupSettings;
  cwd: string;
}

export type GroupProgress = { compressedBytes: number; bytes: number; docs: number; files?: number };

const id = (v: number | null | undefined, field: string, vocabSize: number): number | null => {
  if (v === undefined || v === null) return null;
  if (!Number.isInteger(v) || v < 0 || v >= vocabSize) throw new AssayError('CONFIG', `${v} is not a token id of this tokenizer (0 … ${vocabSize - 1})`, { field });
  return v;
};

/** All checks that can fail before reading a document: ids, dtype, inputs, destination. */
async function prepare(o: TokensOptions, cwd: string): Promise<{ tokenizer: TextTokenizer; settings: GroupSettings; files: { path: string; src: string; size: number }[]; previous: Set<string> }> {
  if (endianness() !== 'LE') throw new AssayError('INTERNAL', 'memmaps are little-endian; this host is big-endian');
  if (/^[a-z0-9]+:\/\//i.test(o.destination)) throw new AssayError('CONFIG', 'remote destinations (s3:// …) are not supported; give a local folder', { field: 'destination' });
  const t = o.tokenizer;
  if ((t.bosTokenId ?? null) === null && (t.eosTokenId ?? null) === null) {
    throw new AssayError('CONFIG', 'give tokenizer.eos_token_id and/or tokenizer.bos_token_id, or documents run together (Dolma requires one too)', { field: 'tokenizer.eos_token_id' });
  }
  const tokenizer = await loadTokenizer({ nameOrPath: t.nameOrPath, encodeSpecialTokens: t.encodeSpecialTokens, cwd });
  const dtype = o.dtype ?? 'uint16';
  const needed = requiredDtype(tokenizer.vocabSize);
  if (dtype !== needed) {
    throw new AssayError('CONFIG', `${dtype} does not match the tokenizer: ${tokenizer.vocabSize.toLocaleString('en-US')} ids need ${needed} (Dolma requires exactly np.min_scalar_type(vocab_size - 1))`, { field: 'dtype' });
  }
  const bos = id(t.bosTokenId, 'tokenizer.bos_token_id', tokenizer.vocabSize);
  const eos = id(t.eosTokenId, 'tokenizer.eos_token_id', tokenizer.vocabSize);
  id(t.padTokenId, 'tokenizer.pad_token_id', tokenizer.vocabSize);
  const positive = (v: number | undefined, def: number, field: string): number => {
    const n = v ?? def;
    if (!Number.isInteger(n) || n < 1) throw new AssayError('CONFIG', `must be an integer ≥ 1, got ${n}`, { field });
    return n;
  };
  const settings: GroupSettings = {
    textField: o.fields?.textFieldName ?? 'text',
    idField: o.fields?.idFieldName === undefined ? 'id' : o.fields.idFieldName,
    idFieldType: o.fields?.idFieldType ?? 'str',
    bos,
    eos,
    segmentBeforeTokenization: t.segmentBeforeTokenization ?? false,
    dtype,
    skipBadLines: o.skipBadLines ?? false,
    maxTokens: positive(o.maxSize, 1024 ** 3, 'max_size'),
    batchSize: positive(o.batchSize, 10_000, 'batch_size'),
    ringSize: positive(o.ringSize, 8, 'ring_size'),
    sampleRingProp: o.sampleRingProp ?? false,
    seed: o.seed ?? 3920,
  };
  const matched = await expandGlobs(o.documents, { cwd, onNote: o.log });
  if (matched.length === 0) throw new AssayError('CONFIG', `no documents match ${o.documents.map((d) => `'${d}'`).join(', ')}`, { field: 'documents' });
  const files = await Promise.all(matched.map(async (src) => ({ path: resolve(cwd, src), src, size: (await stat(resolve(cwd, src))).size })));
  const previous = await previousOutputs(resolve(cwd, o.destination));
  return { tokenizer, settings, files, previous };
}

export async function runTokens(o: TokensOptions): Promise<TokensSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = o.cwd ?? process.cwd();
  const destination = resolve(cwd, o.destination);
  // Taken before planning: the plan lists the destination's earlier outputs, which this run replaces.
  const release = await lockOutputFolders([destination], 'assay tokens', o.log);
  try {
    return await tokensLocked(o, cwd, destination, await planTokens(o, cwd, Math.max(1, o.processes ?? 1)), started, startedAt);
  } finally {
    release();
  }
}

async function tokensLocked(o: TokensOptions, cwd: string, destination: string, planned: PlannedTokens, started: number, startedAt: Date): Promise<TokensSummary> {
  const { tokenizer, settings, files, previous, tasks } = planned;
  const processes = Math.max(1, Math.min(o.processes ?? 1, tasks.length));
  const tracker = new ProgressTracker('tokens', files.reduce((n, f) => n + f.size, 0), files.length, o.onProgress);
  const results: GroupResult[] = [];
  try {
    if (processes === 1) {
      for (const task of tasks) results.push(await tokenizeGroup(task, tokenizer, settings, { signal: o.signal, onProgress: (d) => tracker.add(d), log: o.log }));
    } else {
      const init: TokensWorkerInit = { tokenizer: { nameOrPath: o.tokenizer.nameOrPath, encodeSpecialTokens: o.tokenizer.encodeSpecialTokens ?? false }, settings, cwd };
      await runPool<TokensWorkerInit, GroupTask, GroupResult, GroupProgress>(tasks, {
        entry: workerEntry('tokens-worker', 'tokenize/worker.ts'),
        processes,
        init,
        signal: o.signal,
        onProgress: (_i, d) => tracker.add(d),
        onDone: (_i, r) => void results.push(r),
        onLog: o.log,
      });
      results.sort((a, b) => a.index - b.index);
    }
    await publishParts(destination, results.flatMap((r) => r.parts), previous);
  } catch (e) {
    await discardRun(destination, results.flatMap((r) => r.parts));
    throw e;
  }
  tracker.emit();
  return finishTokens(o, cwd, { tokenizer, settings, files }, results, processes, tracker.state.bytes, startedAt, started);
}

async function finishTokens(
  o: TokensOptions,
  cwd: string,
  p: { tokenizer: TextTokenizer; settings: GroupSettings; files: readonly unknown[] },
  results: GroupResult[],
  processes: number,
  bytes: number,
  startedAt: Date,
  started: number,
): Promise<TokensSummary> {
  const destination = resolve(cwd, o.destination);
  const summary = summarize(o, destination, p.tokenizer, p.settings, { inputs: p.files.length, bytes }, results, processes);
  summary.elapsedSec = (performance.now() - started) / 1000;
  await writeSummary(destination, summary);
  await writeTokensLedger(destination, results.flatMap((r) => r.parts), cwd);
  await writeManifest(o, destination, p.tokenizer, p.settings, startedAt, results);
  if (summary.docs === 0) o.log?.(`no non-empty documents in ${p.files.length} input file(s): nothing was written`);
  return summary;
}

/** Inputs shuffled by the seed and cut into `groups` consecutive groups, one `part-<i>` prefix each (Dolma's executor). */
type PlannedTokens = Awaited<ReturnType<typeof prepare>> & { tasks: GroupTask[] };

export async function planTokens(o: TokensOptions, cwd: string, groups: number): Promise<PlannedTokens> {
  const destination = resolve(cwd, o.destination);
  const prepared = await prepare(o, cwd);
  shuffleInPlace(prepared.files, seededRandom(prepared.settings.seed, 'files'));
  const cut = groupFiles(prepared.files, groups, o.filesPerProcess);
  return { ...prepared, tasks: cut.map((g, i) => ({ index: i, prefix: groupPrefix(destination, i, cut.length), files: g })) };
}

/** One array task of a Slurm run: group `task` of `of` tokenized into temporary parts the final step publishes. */
export async function runTokensSlice(o: TokensOptions, slice: { task: number; of: number }): Promise<{ result: GroupResult; bytes: number }> {
  const cwd = o.cwd ?? process.cwd();
  const { tokenizer, settings, tasks } = await planTokens(o, cwd, slice.of);
  const task = tasks[slice.task];
  if (task === undefined || tasks.length !== slice.of) throw new AssayError('CONFIG', `the inputs now make ${tasks.length} group(s), not ${slice.of}: the files changed since the run was planned`, { field: 'documents' });
  let bytes = 0;
  const result = await tokenizeGroup(task, tokenizer, settings, { signal: o.signal, onProgress: (d) => void (bytes += d.bytes), log: o.log });
  return { result, bytes };
}

/** The final step of a Slurm run: every task's parts published together, then the summary, ledger and manifest. */
export async function finishTokensSlices(o: TokensOptions, slices: readonly { result: GroupResult; bytes: number }[], startedAt: Date): Promise<TokensSummary> {
  const started = performance.now();
  const cwd = o.cwd ?? process.cwd();
  const prepared = await prepare(o, cwd);
  const results = slices.map((x) => x.result).sort((a, b) => a.index - b.index);
  await publishParts(resolve(cwd, o.destination), results.flatMap((r) => r.parts), prepared.previous);
  const bytes = slices.reduce((n, x) => n + x.bytes, 0);
  return finishTokens(o, cwd, prepared, results, results.length, bytes, startedAt, started);
}

/** `<destination>/.assay/manifest.json`: every input with the hash its reader computed, each part pair with exact tokens per source. */
async function writeManifest(o: TokensOptions, destination: string, tokenizer: TextTokenizer, s: GroupSettings, started: Date, results: readonly GroupResult[]): Promise<void> {
  const inputs: InputRecord[] = results.flatMap((r) => r.inputs.map((i) => ({ path: i.path, role: 'documents', sha256: i.sha256 })));
  // A tokenizer.json is small and read whole by the loader; it is hashed here (the built-in gpt2 ships with Assay).
  if (isAbsolute(tokenizer.name)) inputs.push({ path: tokenizer.name, role: 'tokenizer', sha256: await sha256File(tokenizer.name) });
  const outputs: OutputRecord[] = results.flatMap((r) =>
    r.parts.flatMap((p) => [
      { path: p.npy, role: 'tokens', size: p.stored.npy.size, sha256: p.stored.npy.sha256, docs: p.docs, tokens: { count: p.tokens, kind: 'exact' as const }, bySource: sourceCounts(p.bySource, 'exact') },
      { path: p.csv, role: 'token-metadata', size: p.stored.csv.size, sha256: p.stored.csv.sha256, docs: p.docs, tokens: null },
    ]),
  );
  // The options as given, and the settings they resolved to (defaults filled in) that every group ran with.
  const { signal: _signal, onProgress: _progress, log: _log, ...given } = o;
  await writeRunManifest(destination, { stage: 'tokens', started, config: { ...given, resolved: s }, seeds: { seed: s.seed } }, inputs, outputs);
}

function summarize(
  o: TokensOptions,
  destination: string,
  tokenizer: TextTokenizer,
  s: GroupSettings,
  input: { inputs: number; bytes: number },
  results: GroupResult[],
  processes: number,
): TokensSummary {
  const perSource = new Map<string, SourceCount>();
  for (const r of results) {
    for (const [src, c] of r.perSource) {
      const t = perSource.get(src) ?? { docs: 0, tokens: 0, rawTokens: 0 };
      perSource.set(src, { docs: t.docs + c.docs, tokens: t.tokens + c.tokens, rawTokens: t.rawTokens + c.rawTokens });
    }
  }
  const sum = (f: (r: GroupResult) => number): number => results.reduce((n, r) => n + f(r), 0);
  const parts: PartInfo[] = results.flatMap((r) => r.parts);
  return {
    destination,
    tokenizer: { name: tokenizer.name, engine: tokenizer.engine, vocabSize: tokenizer.vocabSize, bos: s.bos, eos: s.eos, pad: o.tokenizer.padTokenId ?? s.eos },
    dtype: s.dtype,
    maxSize: s.maxTokens,
    seed: s.seed,
    ...input,
    docs: sum((r) => r.docs),
    tokens: sum((r) => r.tokens),
    rawTokens: sum((r) => r.rawTokens),
    skippedEmpty: sum((r) => r.skippedEmpty),
    badLines: sum((r) => r.badLines),
    perSource: Object.fromEntries([...perSource].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
    outputs: parts.map((p) => ({ npy: basename(p.npy), csv: basename(p.csv), docs: p.docs, tokens: p.tokens, oversized: p.oversized })),
    groups: results.length,
    processes,
    elapsedSec: 0,
  };
}

export { summaryPath };
