// `runMinhash`: DataTrove's MinHash near-dedup over local Dolma files in one process, with disk-bounded memory.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { MinhashConfig } from '../../../../shared/dedupe/minhash-schema.js';
import { AssayError } from '../../errors.js';
import { lockAttributeFiles } from '../../io/attribute-lock.js';
import { discardTemp, expandGlobs, parseCodecName, promoteTemp } from '../../io/index.js';
import { ProgressTracker, type ProgressSink } from '../../jobs/progress.js';
import { attributeSetFolder, writeRunManifest, type InputRecord, type OutputRecord } from '../../manifest/write.js';
import { checkDocumentDir, dedupeOutputPath } from '../dolma/paths.js';
import { clusterBucket } from './cluster.js';
import { closeSync, openIdFile, signFile, type SignPassOptions } from './sign-pass.js';
import { MinhashSigner } from './signer.js';
import { bucketPaths as bucketFiles, mergeBucket, SignatureCache, type Done } from './resume.js';
import { RecordFiles } from './spill.js';
import { UnionFind } from './union-find.js';
import { createWorkDir, removeStaleWorkDirs } from './workdir.js';
import { writeAttributes, type OutputJob } from './write-pass.js';

export { MinhashSigner, type SignerConfig } from './signer.js';

export interface MinhashRunOptions {
  /**
   * A Slurm run's bucket stage output, one file per bucket (`bucketPairs`): pass 2 unions these instead of
   * reading the buckets again. Union-find roots are the smallest index, so the clusters equal a one-process run.
   */
  pairs?: readonly string[];
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
}

export interface MinhashFileSummary {
  input: string;
  output: string;
  docs: number;
}

export interface MinhashSummary {
  files: MinhashFileSummary[];
  /** Input files whose signatures came from an earlier run that did not finish. */
  resumedFiles: number;
  documents: number;
  /** Documents with at least n_grams tokens (the others cannot be deduplicated). */
  signed: number;
  bytes: number;
  /** Clusters of ≥ 2 documents, and the documents marked duplicate (all members but each cluster's first). */
  clusters: number;
  duplicates: number;
  clusteredDocs: number;
  /** Equal-band matches over all buckets (DataTrove's stage-2 `total_matches`). */
  matches: number;
  /** Most partitions any bucket was split into to fit max_memory_mb (1 = none split). */
  maxPartitions: number;
  elapsedSec: number;
}

type CodecName = ReturnType<typeof parseCodecName>;
const cancelled = (): AssayError => new AssayError('CANCELLED', 'minhash cancelled');

export async function runMinhash(cfg: MinhashConfig, opts: MinhashRunOptions = {}): Promise<MinhashSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = resolve(opts.cwd ?? process.cwd());
  checkDocumentDir(cfg.documents, cfg.document_dir);
  const readCodec = cfg.compression?.input ? parseCodecName(cfg.compression.input, 'compression.input') : undefined;
  const writeCodec = cfg.compression?.output ? parseCodecName(cfg.compression.output, 'compression.output') : readCodec;
  const inputs = (await expandGlobs(cfg.documents, { cwd, onNote: opts.log })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no documents match ${cfg.documents.map((p) => `'${p}'`).join(', ')}`, { field: 'documents' });
  const outputs = inputs.map((input) => dedupeOutputPath(input, cfg.document_dir, cfg.name));
  const signer = await MinhashSigner.create(cfg);

  const workRoot = cfg.work_dir !== undefined ? resolve(cwd, cfg.work_dir) : dirname(outputs[0] as string);
  // Another run writing these attribute files (the app beside a terminal) is waited for: both would sign into one
  // resume cache and publish each other's temporary files.
  const { release: unlock } = await lockAttributeFiles(outputs, 'minhash', opts);
  try {
    return await minhashLocked(cfg, opts, { started, startedAt, inputs, outputs, signer, workRoot, readCodec, writeCodec });
  } finally {
    unlock();
  }
}

/** The run itself, once this process holds the lock of every output. */
async function minhashLocked(
  cfg: MinhashConfig,
  opts: MinhashRunOptions,
  run: { started: number; startedAt: Date; inputs: string[]; outputs: string[]; signer: MinhashSigner; workRoot: string; readCodec: CodecName | undefined; writeCodec: CodecName | undefined },
): Promise<MinhashSummary> {
  const { started, startedAt, inputs, outputs, signer, workRoot, readCodec, writeCodec } = run;
  const { signal } = opts;
  mkdirSync(workRoot, { recursive: true });
  const stale = removeStaleWorkDirs(workRoot);
  if (stale.removed.length > 0) opts.log?.(`minhash: removed ${stale.removed.length} spill folder(s) left by killed runs in ${workRoot}`);
  if (stale.left.length > 0) opts.log?.(`minhash: ${stale.left.length} spill folder(s) of other runs left in ${workRoot} (${stale.left.slice(0, 3).join(', ')}): delete them when no MinHash run uses them`);
  const work = createWorkDir(workRoot);
  const published: string[] = [];
  const cache = new SignatureCache(workRoot, cfg);
  try {
    if (signal?.aborted) throw cancelled();
    let totalBytes = 0;
    for (const input of inputs) totalBytes += (await stat(input)).size;
    const summary: MinhashSummary = { files: [], resumedFiles: 0, documents: 0, signed: 0, bytes: 0, clusters: 0, duplicates: 0, clusteredDocs: 0, matches: 0, maxPartitions: 1, elapsedSec: 0 };

    // Pass 1: signatures → band keys spilled per bucket, one resumable cache entry per input file.
    cache.dropTemporaries();
    const signed: { dir: string; firstDoc: number; done: Done }[] = [];
    const signTracker = new ProgressTracker('minhash signatures', totalBytes, inputs.length, opts.onProgress);
    for (const [i, input] of inputs.entries()) {
      if (signal?.aborted) throw cancelled();
      const entry = cache.entry(input);
      let done = cache.finished(entry);
      if (done !== undefined) {
        summary.resumedFiles++;
        signTracker.add({ compressedBytes: (await stat(input)).size, bytes: done.bytes, docs: done.docs, files: 1 });
      } else {
        done = await signOne(input, entry, cache, signer, { readCodec, signal, onProgress: (p) => signTracker.add(p) });
        signTracker.add({ files: 1 });
      }
      signed.push({ dir: entry, firstDoc: summary.documents, done });
      summary.files.push({ input, output: outputs[i] as string, docs: done.docs });
      summary.documents += done.docs;
      summary.signed += done.signed;
      summary.bytes += done.bytes;
    }
    if (summary.resumedFiles > 0) opts.log?.(`minhash: reused the signatures of ${summary.resumedFiles} file(s) from an earlier, unfinished run`);
    signTracker.emit();
    const idPath = join(work, 'ids.tsv');
    concatIds(signed, idPath);
    const uf = new UnionFind(summary.documents);
    if (opts.pairs !== undefined) {
      for (const path of opts.pairs) Object.assign(summary, unionPairs(path, uf, summary));
      return await writePass(cfg, startedAt, started, signed, summary, outputs, uf, idPath, cache, work, published, writeCodec, signal);
    }
    const merged = mergeAll(signed, cfg.num_buckets, work);

    // Pass 2: one bucket at a time into the union-find.
    const memory = cfg.max_memory_mb * 1024 * 1024;
    const clusterTracker = new ProgressTracker('minhash buckets', cfg.num_buckets, cfg.num_buckets, opts.onProgress);
    for (const [b, path] of merged.paths.entries()) {
      if (signal?.aborted) throw cancelled();
      const s = clusterBucket(path, merged.counts[b] as number, memory, uf, signal);
      summary.matches += s.pairs;
      summary.maxPartitions = Math.max(summary.maxPartitions, s.partitions);
      rmSync(path, { force: true });
      clusterTracker.add({ compressedBytes: 1, files: 1 });
    }
    clusterTracker.emit();

    return await writePass(cfg, startedAt, started, signed, summary, outputs, uf, idPath, cache, work, published, writeCodec, signal);
  } catch (e) {
    for (const out of published) await discardTemp(out);
    cache.keepFinishedOnly();
    if (signal?.aborted && !(e instanceof AssayError && e.code === 'CANCELLED')) throw cancelled();
    throw e;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * One manifest per attribute folder the run wrote (`<root>/attributes/<name>/`). Clusters span every input, so
 * each lists all of the run's inputs; its outputs are the files in that folder.
 */
async function writeManifests(cfg: MinhashConfig, started: Date, signed: readonly { done: Done }[], written: readonly { path: string; size: number; sha256: string }[]): Promise<void> {
  const inputs: InputRecord[] = signed.map((s) => ({ path: s.done.input, role: 'documents', sha256: s.done.sha256 }));
  const folders = new Map<string, OutputRecord[]>();
  written.forEach((w, i) => {
    const done = signed[i]?.done as Done;
    const folder = attributeSetFolder(w.path, cfg.name);
    const list = folders.get(folder) ?? [];
    list.push({ path: w.path, role: `attributes/${cfg.name}`, size: w.size, sha256: w.sha256, docs: done.docs, tokens: { count: done.tokens, kind: 'estimate' } });
    folders.set(folder, list);
  });
  const cache = new Map();
  for (const [folder, outs] of folders) await writeRunManifest(folder, { stage: 'minhash', started, config: cfg, seeds: { seed: cfg.seed } }, inputs, outs, cache);
}

/**
 * Stage 1 of a Slurm run: sign `files` (a task's slice of the run's inputs) into the resume cache the full run
 * reads. Nothing shared is cleaned here (other tasks are signing into the same cache); each file's entry appears
 * only once complete, so the final `runMinhash` reuses every entry and only buckets, clusters and writes.
 */
export async function signMinhashFiles(cfg: MinhashConfig, allInputs: readonly string[], files: readonly string[], opts: MinhashRunOptions = {}): Promise<{ signed: number; reused: number }> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const readCodec = cfg.compression?.input ? parseCodecName(cfg.compression.input, 'compression.input') : undefined;
  // The same work root as the full run: `work_dir`, else the attribute folder of the run's first input.
  const workRoot = cfg.work_dir !== undefined ? resolve(cwd, cfg.work_dir) : dirname(dedupeOutputPath(allInputs[0] as string, cfg.document_dir, cfg.name));
  mkdirSync(workRoot, { recursive: true });
  const cache = new SignatureCache(workRoot, cfg);
  const signer = await MinhashSigner.create(cfg);
  let total = 0;
  for (const f of files) total += (await stat(f)).size;
  const tracker = new ProgressTracker('minhash signatures', total, files.length, opts.onProgress);
  const out = { signed: 0, reused: 0 };
  for (const input of files) {
    if (opts.signal?.aborted) throw cancelled();
    const entry = cache.entry(input);
    if (cache.finished(entry) !== undefined) out.reused++;
    else {
      await signOne(input, entry, cache, signer, { readCodec, signal: opts.signal, onProgress: (p) => tracker.add(p) });
      out.signed++;
    }
    tracker.add({ files: 1 });
  }
  tracker.emit();
  return out;
}

/** Signs one file into its cache entry (local document indices), published only when the file is complete. */
async function signOne(input: string, entry: string, cache: SignatureCache, signer: MinhashSigner, opts: SignPassOptions): Promise<Done> {
  const { tmp, buckets, idPath } = cache.begin(entry, signer.cfg.num_buckets);
  const idFd = openIdFile(idPath);
  try {
    const c = await signFile(input, 0, signer, buckets, idFd, opts);
    buckets.close();
    const done: Done = { input, ...c, buckets: [...buckets.counts] };
    closeSync(idFd);
    cache.commit(entry, tmp, done);
    return done;
  } catch (e) {
    buckets.abandon();
    closeSync(idFd);
    rmSync(tmp, { recursive: true, force: true });
    throw e;
  }
}

/** Pass 3: attributes, published only when every file is complete; then the resume cache goes and the manifests are written. */
async function writePass(
  cfg: MinhashConfig,
  startedAt: Date,
  started: number,
  signed: readonly { done: Done }[],
  summary: MinhashSummary,
  outputs: readonly string[],
  uf: UnionFind,
  idPath: string,
  cache: SignatureCache,
  work: string,
  published: string[],
  writeCodec: CodecName | undefined,
  signal: AbortSignal | undefined,
): Promise<MinhashSummary> {
  const jobs: OutputJob[] = summary.files.map((f) => ({ output: f.output, docs: f.docs, ...(writeCodec ? { writeCodec } : {}) }));
  published.push(...outputs);
  const { written, ...w } = await writeAttributes(idPath, jobs, cfg.name, uf, signal);
  if (signal?.aborted) throw cancelled();
  for (const out of outputs) await promoteTemp(out);
  published.length = 0;
  cache.clear(work);
  await writeManifests(cfg, startedAt, signed, written);
  Object.assign(summary, w, { elapsedSec: (performance.now() - started) / 1000 });
  return summary;
}

/** The cache entries of every input in run order, each with the global index of its first document. */
function signedEntries(cache: SignatureCache, inputs: readonly string[]): { dir: string; firstDoc: number; done: Done }[] {
  let first = 0;
  return inputs.map((input) => {
    const dir = cache.entry(input);
    const done = cache.finished(dir);
    if (done === undefined) throw new AssayError('IO', 'this file has no finished signatures in the resume cache; rerun its signature task', { file: input });
    const e = { dir, firstDoc: first, done };
    first += done.docs;
    return e;
  });
}

/**
 * Stage 2 of a Slurm run (DataTrove's per-bucket stage): bucket `b` of every signed file merged and clustered
 * alone; each document of a cluster is written with its root as a pair of uint32 to `outFile` (+ `.json` stats).
 */
export function bucketPairs(cfg: MinhashConfig, allInputs: readonly string[], b: number, outFile: string, opts: { cwd?: string; signal?: AbortSignal } = {}): { pairs: number; partitions: number } {
  const cwd = resolve(opts.cwd ?? process.cwd());
  const workRoot = cfg.work_dir !== undefined ? resolve(cwd, cfg.work_dir) : dirname(dedupeOutputPath(allInputs[0] as string, cfg.document_dir, cfg.name));
  const entries = signedEntries(new SignatureCache(workRoot, cfg), allInputs);
  const docs = entries.reduce((n, e) => n + e.done.docs, 0);
  mkdirSync(dirname(outFile), { recursive: true });
  const tmp = `${outFile}.tmp`;
  const spill = new RecordFiles([`${tmp}.bucket`]);
  try {
    mergeBucket(entries, b, spill, 0);
    spill.close();
  } catch (e) {
    spill.abandon();
    throw e;
  }
  const uf = new UnionFind(docs);
  const stats = clusterBucket(`${tmp}.bucket`, spill.counts[0] as number, cfg.max_memory_mb * 1024 * 1024, uf, opts.signal);
  rmSync(`${tmp}.bucket`, { force: true });
  const out: number[] = [];
  for (let i = 0; i < docs; i++) {
    const r = uf.find(i);
    if (r !== i) out.push(i, r);
  }
  writeFileSync(tmp, Buffer.from(new Uint32Array(out).buffer));
  writeFileSync(`${outFile}.json`, JSON.stringify({ pairs: stats.pairs, partitions: stats.partitions }));
  renameSync(tmp, outFile);
  return { pairs: stats.pairs, partitions: stats.partitions };
}

/** Unions a bucket task's pairs into `uf`; returns the summary's match counts with that bucket's added. */
function unionPairs(path: string, uf: UnionFind, summary: MinhashSummary): Pick<MinhashSummary, 'matches' | 'maxPartitions'> {
  const bytes = readFileSync(path);
  // A copy: a small file's Buffer may sit at an offset in Node's pool that is not 4-byte aligned.
  const ids = new Uint32Array(new Uint8Array(bytes).buffer);
  for (let j = 0; j + 1 < ids.length; j += 2) uf.union(ids[j] as number, ids[j + 1] as number);
  const s = JSON.parse(readFileSync(`${path}.json`, 'utf8')) as { pairs: number; partitions: number };
  return { matches: summary.matches + s.pairs, maxPartitions: Math.max(summary.maxPartitions, s.partitions) };
}

/** One spill file per bucket over all inputs, with global document indices (file order, then line). */
function mergeAll(signed: readonly { dir: string; firstDoc: number; done: Done }[], numBuckets: number, work: string): { paths: string[]; counts: number[] } {
  const paths = bucketFiles(work, numBuckets);
  const out = new RecordFiles(paths);
  try {
    for (let b = 0; b < numBuckets; b++) mergeBucket(signed, b, out, b);
    out.close();
  } catch (e) {
    out.abandon();
    throw e;
  }
  return { paths, counts: out.counts };
}

function concatIds(signed: readonly { dir: string }[], idPath: string): void {
  const fd = openIdFile(idPath);
  try {
    for (const e of signed) {
      const bytes = readFileSync(join(e.dir, 'ids.tsv'));
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off);
    }
  } finally {
    closeSync(fd);
  }
}
