// `runDedupe`: Dolma's deduper over local files — one process, one exact filter, outputs beside the documents.
import { stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import type { DedupeConfig } from '../../../shared/dedupe/schema.js';
import { AssayError } from '../errors.js';
import { discardTemp, expandGlobs, parseCodecName, promoteTemp } from '../io/index.js';
import { lockAttributeFiles } from '../io/attribute-lock.js';
import { lockOutputFile } from '../io/output-lock.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { attributeSetFolder, sha256File, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { KeyEncoder, loadXxhash, saveFilter, type BloomStats, type ManifestEntry } from './bloom/index.js';
import { attributeName, buildMode, checkDocumentDir, dedupeFile, dedupeOutputPath, directoryName, type FileJob } from './dolma/index.js';
import { heldBy, openFilter, settingsFingerprint } from './filter-state.js';

export interface DedupeRunOptions {
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
}

export interface DedupeFileSummary {
  input: string;
  output: string;
  /** deduped now; kept: already in the filter with its output intact; partition: not this file partition's. */
  status: 'deduped' | 'kept' | 'partition';
  docs: number;
  duplicateDocs: number;
  spans: number;
}

export interface DedupeSummary {
  files: DedupeFileSummary[];
  documents: number;
  /** Documents with at least one span (with overlap_threshold 0 that includes score-0 spans). */
  duplicateDocs: number;
  spans: number;
  bytes: number;
  bloom: BloomStats & { file: string; created: boolean; saved: boolean; readOnly: boolean };
  elapsedSec: number;
}

/**
 * A filter that is written (not `read_only`) is locked for the whole run: two runs sharing it would each add their
 * documents to the filter as they read it and the last to save would drop the other's (Slurm's partitions each
 * have a filter of their own).
 */
export async function runDedupe(cfg: DedupeConfig, opts: DedupeRunOptions = {}): Promise<DedupeSummary> {
  if (cfg.bloom_filter.read_only) return dedupeRun(cfg, opts);
  const unlock = await lockOutputFile(resolve(opts.cwd ?? process.cwd(), cfg.bloom_filter.file), 'assay dedupe', opts.log);
  try {
    return await dedupeRun(cfg, opts);
  } finally {
    unlock();
  }
}

async function dedupeRun(cfg: DedupeConfig, opts: DedupeRunOptions): Promise<DedupeSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = resolve(opts.cwd ?? process.cwd());
  const d = cfg.dedupe;
  checkDocumentDir(cfg.documents, d.document_dir);
  const readCodec = cfg.compression?.input ? parseCodecName(cfg.compression.input, 'compression.input') : undefined;
  const writeCodec = cfg.compression?.output ? parseCodecName(cfg.compression.output, 'compression.output') : readCodec;
  const inputs = (await expandGlobs(cfg.documents, { cwd, onNote: opts.log })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no documents match ${cfg.documents.map((p) => `'${p}'`).join(', ')}`, { field: 'documents' });
  const attribute = attributeName(d);
  const jobs: FileJob[] = inputs.map((input) => ({ input, output: dedupeOutputPath(input, d.document_dir, directoryName(d)), readCodec, writeCodec }));
  if (cfg.processes > 1) opts.log?.(`processes: ${cfg.processes} ignored — Assay dedupes in one process so the bloom filter stays exact and "first occurrence" is file order`);

  const filterPath = resolve(cwd, cfg.bloom_filter.file);
  const readOnly = cfg.bloom_filter.read_only;
  const { filter, manifest, created, sha256: filterSha256 } = await openFilter(cfg.bloom_filter, filterPath);
  const record: { inputs: InputRecord[]; outputs: OutputRecord[] } = { inputs: [], outputs: [] };
  const set = directoryName(d);
  const fingerprint = settingsFingerprint(cfg, attribute);
  const apply = buildMode(d, { filter, enc: new KeyEncoder(), readOnly, numPartitions: d.num_partitions, partitionIndex: d.partition_index });

  const summary: DedupeSummary = { files: [], documents: 0, duplicateDocs: 0, spans: 0, bytes: 0, bloom: { ...filter.stats(), file: filterPath, created, saved: false, readOnly }, elapsedSec: 0 };
  const todo: FileJob[] = [];
  const xxh = await loadXxhash();
  for (const job of jobs) {
    if (d.file_partition && d.num_partitions > 1) {
      // Dolma hashes the path with fixed-seed ahash; Assay uses xxhash64 of the path relative to cwd.
      const h = xxh.h64(relative(cwd, job.input), 0n);
      if (Number(h % BigInt(d.num_partitions)) !== d.partition_index) {
        summary.files.push({ input: job.input, output: job.output, status: 'partition', docs: 0, duplicateDocs: 0, spans: 0 });
        continue;
      }
    }
    const held = readOnly ? null : await heldBy(manifest, job.input, job.output, fingerprint, filterPath);
    if (held) {
      summary.files.push({ input: job.input, output: job.output, status: 'kept', docs: held.docs, duplicateDocs: 0, spans: 0 });
      // Filters saved before run manifests have no hashes of what they hold: hash those files once here.
      record.inputs.push({ path: job.input, role: 'documents', sha256: held.sha256 ?? (await sha256File(job.input)), size: held.size, mtimeMs: held.mtimeMs });
      const tokens = held.tokens === undefined ? null : { count: held.tokens, kind: 'estimate' as const };
      record.outputs.push({ path: job.output, role: `attributes/${set}`, size: held.outputSize, sha256: held.outputSha256 ?? (await sha256File(job.output)), docs: held.docs, tokens });
    } else todo.push(job);
  }
  let totalBytes = 0;
  for (const job of todo) totalBytes += (await stat(job.input)).size;
  const tracker = new ProgressTracker('dedupe', totalBytes, todo.length, opts.onProgress);
  const added: ManifestEntry[] = [];
  const staged: string[] = [];
  const saveNeeded = !readOnly && (created || todo.length > 0);
  // Another run writing these attribute files (a read_only run beside this one, another filter) is waited for. The
  // files the filter already holds are locked too: a run killed after saving the filter left their locks, which this
  // takes over and removes (a clean run leaves none).
  const mine = summary.files.filter((f) => f.status === 'kept').map((f) => f.output);
  const { release: unlock } = await lockAttributeFiles([...mine, ...todo.map((j) => j.output)], 'dedupe', opts);
  try {
    for (const job of todo) {
      if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'dedupe cancelled', { file: job.input });
      staged.push(job.output);
      const c = await dedupeFile(job, attribute, apply, { signal: opts.signal, onProgress: (p) => tracker.add(p) });
      tracker.add({ files: 1 });
      const inStat = await stat(job.input);
      const outStat = await stat(`${job.output}.tmp`);
      added.push({ input: job.input, size: inStat.size, mtimeMs: inStat.mtimeMs, fingerprint, output: job.output, outputSize: outStat.size, docs: c.docs, sha256: c.sha256, outputSha256: c.output.sha256, tokens: c.tokens });
      record.inputs.push({ path: job.input, role: 'documents', sha256: c.sha256, size: inStat.size, mtimeMs: inStat.mtimeMs });
      record.outputs.push({ path: job.output, role: `attributes/${set}`, size: c.output.size, sha256: c.output.sha256, docs: c.docs, tokens: { count: c.tokens, kind: 'estimate' } });
      summary.files.push({ input: job.input, output: job.output, status: 'deduped', docs: c.docs, duplicateDocs: c.duplicateDocs, spans: c.spans });
      summary.documents += c.docs;
      summary.duplicateDocs += c.duplicateDocs;
      summary.spans += c.spans;
      summary.bytes += c.bytes;
    }
    tracker.emit();
    if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'dedupe cancelled');
    // Everything is written before anything is published (the filter, the largest file, is where a full disk
    // shows): then the attributes, then the filter. A run stopped before the filter's rename leaves the previous
    // filter, whose manifest lacks these inputs, so a rerun recomputes the same attributes.
    let savedFilter: { bytes: number; sha256: string } | null = null;
    if (saveNeeded) {
      const byInput = new Map(manifest.files.map((e) => [e.input, e]));
      for (const e of added) byInput.set(e.input, e);
      savedFilter = await saveFilter(filterPath, filter, { files: [...byInput.values()] }, { deferRename: true });
    }
    for (const out of staged) await promoteTemp(out);
    staged.length = 0;
    if (saveNeeded) {
      await promoteTemp(filterPath);
      summary.bloom.saved = true;
    }
    // The filter is state shared by every file. An input when it held something this run did not make: files
    // outside its inputs or made with other settings (a filter reused across datasets, read_only); what a run
    // stopped after saving it left is this run's own state, so a resumed run records what a clean one does.
    // An output whenever the run keeps it: saved now, or left as the stopped run saved it.
    const own = new Set(jobs.map((j) => j.input));
    const foreign = manifest.files.some((e) => !own.has(e.input) || e.fingerprint !== fingerprint);
    if (filterSha256 !== null && (readOnly || foreign)) record.inputs.push({ path: filterPath, role: 'bloom_filter', sha256: filterSha256 });
    const kept = savedFilter ?? (!readOnly && filterSha256 !== null ? { bytes: (await stat(filterPath)).size, sha256: filterSha256 } : null);
    if (kept !== null) record.outputs.push({ path: filterPath, role: 'bloom_filter', size: kept.bytes, sha256: kept.sha256, docs: null, tokens: null });
    await writeManifests(record, set, { stage: 'dedupe', started: startedAt, config: cfg });
  } catch (e) {
    for (const out of staged) await discardTemp(out);
    if (saveNeeded) await discardTemp(filterPath);
    throw e;
  } finally {
    unlock();
  }
  summary.bloom = { ...summary.bloom, ...filter.stats() };
  const wanted = cfg.bloom_filter.desired_false_positive_rate;
  if (wanted > 0 && summary.bloom.estimatedFalsePositiveRate > 10 * wanted) {
    // estimated_doc_count counts keys: paragraphs or n-grams in those modes, not documents.
    opts.log?.(`warning: the bloom filter is ${(summary.bloom.fillRatio * 100).toFixed(1)}% full; its false-positive rate is now ≈ ${summary.bloom.estimatedFalsePositiveRate.toExponential(1)} (configured ${wanted}). Raise estimated_doc_count to the number of keys (paragraphs / n-grams) inserted.`);
  }
  summary.elapsedSec = (performance.now() - started) / 1000;
  return summary;
}

/** One manifest per attribute folder written (`<root>/attributes/<name>/`): the filter makes every file depend on all, so each lists every input. */
async function writeManifests(record: { inputs: InputRecord[]; outputs: OutputRecord[] }, set: string, run: Parameters<typeof writeRunManifest>[1]): Promise<void> {
  const folders = new Map<string, OutputRecord[]>();
  const shared = record.outputs.filter((o) => o.role === 'bloom_filter');
  for (const o of record.outputs) {
    if (o.role === 'bloom_filter') continue;
    const folder = attributeSetFolder(o.path, set);
    folders.set(folder, [...(folders.get(folder) ?? []), o]);
  }
  const cache = new Map();
  for (const [folder, outs] of folders) await writeRunManifest(folder, run, record.inputs, [...outs, ...shared], cache);
}
