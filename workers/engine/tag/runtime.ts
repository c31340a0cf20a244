// `assay tag`: plan one task per documents file, skip completed ones by marker, run in-process or on a pool.
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { segmentProblem } from '../../../shared/segment.js';
import { AssayError } from '../errors.js';
import { attributePathFor, checkLevel, expandGlobs, inferCodec } from '../io/index.js';
import { markerPath } from '../io/markers.js';
import { removeDeadAttributeLocks } from '../io/attribute-lock.js';
import { workerEntry } from '../jobs/entry.js';
import { runPool } from '../jobs/pool.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { attributeSetFolder, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { doneMarkers, type Marker } from './markers.js';
import { keyPrefix, tagFile, type FileResult, type FileTask, type OutputSet } from './file.js';
import { TaggerRegistry, type AnySpec } from './registry.js';
import { tuneV8 } from '../v8-tuning.js';

export interface TaggerRequest {
  name: string;
  options?: Record<string, unknown>;
  /** Per-tagger experiment (a preset can fill several attribute sets in one read); defaults to TagOptions.experiment. */
  experiment?: string;
}

interface ResolvedTagger {
  spec: AnySpec;
  options: unknown;
  experiment: string | undefined;
}

export interface TagOptions {
  documents: string[];
  taggers: (string | TaggerRequest)[];
  experiment?: string;
  processes?: number;
  /** Also skip files whose attribute outputs exist without an Assay marker (e.g. written by Dolma). */
  skipExisting?: boolean;
  /** Re-tag files even when a matching completion marker exists. */
  ignoreExisting?: boolean;
  skipBadLines?: boolean;
  /** Compression level of the attribute files (default: gzip 4, see file.ts's TAG_GZIP_LEVEL; zstd 3). */
  compressionLevel?: number;
  taggerModules?: string[];
  /** Base seed for seeded taggers (random_number_v1); each file derives its own from it. */
  seed?: number;
  /**
   * false: no run manifest (a cluster array task: its tasks share the attribute set folders, and the final step
   * writes each folder's manifest once, from every file's marker).
   */
  manifest?: boolean;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
}

export interface TagSummary {
  files: { input: string; outputs: string[]; status: 'tagged' | 'skipped'; docs: number }[];
  docs: number;
  bytes: number;
  badLines: number;
  elapsedSec: number;
  processes: number;
}

/** What the pool workers need to rebuild the registry and taggers on their side. */
export interface TagWorkerInit {
  taggerModules: string[];
  cwd: string;
  skipBadLines: boolean;
  compressionLevel?: number;
}

export async function resolveTaggers(reqs: (string | TaggerRequest)[], registry: TaggerRegistry, experiment?: string): Promise<ResolvedTagger[]> {
  if (reqs.length === 0) throw new AssayError('CONFIG', 'no taggers given', { field: 'taggers' });
  return reqs.map((r) => {
    const req = typeof r === 'string' ? { name: r } : r;
    const spec = registry.get(req.name);
    const exp = req.experiment ?? experiment;
    // The experiment is the folder attributes/<experiment>/ (the config schemas refuse worse; the --experiment flag comes here).
    const bad = exp === undefined ? null : segmentProblem(exp);
    if (bad !== null) throw new AssayError('CONFIG', `experiment ${bad}`, { field: 'experiment' });
    if (!spec.options) {
      if (req.options && Object.keys(req.options).length > 0) throw new AssayError('CONFIG', `tagger '${spec.name}' takes no options`, { field: `taggers.${spec.name}` });
      return { spec, options: {}, experiment: exp };
    }
    const parsed = spec.options.safeParse(req.options ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AssayError('CONFIG', `${issue?.path.join('.') || 'options'}: ${issue?.message ?? 'invalid'}`, { field: `taggers.${spec.name}` });
    }
    return { spec, options: parsed.data, experiment: exp };
  });
}

function fingerprint(taggers: ResolvedTagger[], seed: number): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ v: 1, seed, taggers: taggers.map((t) => [t.spec.name, t.options, t.experiment ?? null]) }));
  return h.digest('hex').slice(0, 16);
}

export { markerPath };

export async function runTag(opts: TagOptions): Promise<TagSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = opts.cwd ?? process.cwd();
  // Before the taggers are made and primed (a no-op where runCached has set it already).
  tuneV8();
  const registry = new TaggerRegistry();
  const modules = (opts.taggerModules ?? []).map((m) => resolve(cwd, m));
  for (const m of modules) await registry.loadModule(m, cwd);
  const taggers = await resolveTaggers(opts.taggers, registry, opts.experiment);
  const seed = opts.seed ?? 0;
  const fp = fingerprint(taggers, seed);
  const inputs = (await expandGlobs(opts.documents, { cwd, onNote: opts.log })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no documents match ${opts.documents.map((d) => `'${d}'`).join(', ')}`, { field: 'documents' });

  const tasks: FileTask[] = [];
  const summary: TagSummary = { files: [], docs: 0, bytes: 0, badLines: 0, elapsedSec: 0, processes: 1 };
  const record = new ManifestRecords();
  let totalBytes = 0;
  for (const [i, input] of inputs.entries()) {
    const outputs = outputSets(input, taggers);
    const paths = outputs.map((o) => o.path);
    // Before any file is written: a level the attribute files' codec refuses fails the run, not each file.
    for (const p of paths) checkLevel(inferCodec(p), opts.compressionLevel, 'compression_level');
    const done = opts.ignoreExisting ? null : await doneMarkers(input, paths, fp, opts.skipExisting);
    if (done !== null) {
      removeDeadAttributeLocks(paths, opts.log);
      summary.files.push({ input, outputs: paths, status: 'skipped', docs: 0 });
      outputs.forEach((o, k) => record.fromMarker(input, o, done[k] ?? null));
      continue;
    }
    totalBytes += (await stat(input)).size;
    tasks.push({ input, outputs, seed: deriveSeed(seed, i, input, cwd), cwd, fingerprint: fp, recheck: !opts.ignoreExisting });
  }
  const tracker = new ProgressTracker('tag', totalBytes, tasks.length, opts.onProgress);
  const processes = Math.max(1, Math.min(opts.processes ?? 1, tasks.length || 1));
  summary.processes = processes;
  const onDone = (task: FileTask, r: FileResult): void => {
    tracker.add({ files: 1 });
    // Markers were written with the file, under its lock; a file another run finished meanwhile comes back skipped.
    task.outputs.forEach((o, k) => record.fromMarker(task.input, o, r.markers[k] ?? null));
    summary.files.push({ input: task.input, outputs: task.outputs.map((o) => o.path), status: r.skipped ? 'skipped' : 'tagged', docs: r.docs });
    summary.docs += r.docs;
    summary.bytes += r.bytes;
    summary.badLines += r.badLines;
  };
  if (processes === 1) {
    for (const task of tasks) {
      onDone(task, await tagFile(task, { signal: opts.signal, skipBadLines: opts.skipBadLines, compressionLevel: opts.compressionLevel, onProgress: (d) => tracker.add(d), log: opts.log }));
    }
  } else {
    await runPool<TagWorkerInit, WireTask, FileResult, { compressedBytes: number; bytes: number; docs: number }>(tasks.map(toWire), {
      entry: workerEntry('tag-worker', 'tag/worker.ts'),
      processes,
      init: { taggerModules: modules, cwd, skipBadLines: opts.skipBadLines ?? false, compressionLevel: opts.compressionLevel },
      signal: opts.signal,
      onProgress: (_i, d) => tracker.add(d),
      onDone: (i, r) => onDone(tasks[i] as FileTask, r),
      onLog: opts.log,
    });
  }
  tracker.emit();
  const config = { documents: opts.documents, taggers: taggers.map((t) => ({ name: t.spec.name, options: t.options, experiment: t.experiment ?? null })), experiment: opts.experiment ?? null, seed, skipExisting: opts.skipExisting ?? false, ignoreExisting: opts.ignoreExisting ?? false, skipBadLines: opts.skipBadLines ?? false, compressionLevel: opts.compressionLevel ?? null, taggerModules: modules };
  if (opts.manifest !== false) await record.write({ stage: 'tag', started: startedAt, config, seeds: { seed } });
  summary.elapsedSec = (performance.now() - started) / 1000;
  return summary;
}

/** Per attribute set folder (`<root>/attributes/<set>/`), the documents read and the attribute files written. */
class ManifestRecords {
  readonly #folders = new Map<string, { inputs: InputRecord[]; outputs: OutputRecord[] }>();

  /** One output of one documents file, from its marker (written by this run or left by the run that tagged it). */
  fromMarker(input: string, set: OutputSet, marker: Marker | null): void {
    const folder = attributeSetFolder(set.path, set.name);
    let f = this.#folders.get(folder);
    if (!f) this.#folders.set(folder, (f = { inputs: [], outputs: [] }));
    // Outputs kept by --skip-existing without an Assay marker were not written by Assay: nothing to vouch for.
    if (marker === null || marker.input.sha256 === undefined || marker.output.sha256 === undefined) return;
    f.inputs.push({ path: input, role: 'documents', sha256: marker.input.sha256, size: marker.input.size, mtimeMs: marker.input.mtimeMs });
    const tokens = marker.tokens === undefined ? null : { count: marker.tokens, kind: 'estimate' as const };
    f.outputs.push({ path: set.path, role: `attributes/${set.name}`, size: marker.output.size, sha256: marker.output.sha256, docs: marker.docs, tokens });
  }

  async write(run: Parameters<typeof writeRunManifest>[1]): Promise<void> {
    const cache = new Map();
    for (const [folder, f] of this.#folders) await writeRunManifest(folder, run, f.inputs, f.outputs, cache);
  }
}

/** A FileTask as it crosses the process boundary: specs (which hold functions) travel by name. */
export interface WireTask extends Omit<FileTask, 'outputs'> {
  outputs: (Omit<OutputSet, 'taggers'> & { taggers: { name: string; options: unknown; prefix: string }[] })[];
}

function toWire(task: FileTask): WireTask {
  return { ...task, outputs: task.outputs.map((o) => ({ ...o, taggers: o.taggers.map((t) => ({ name: t.spec.name, options: t.options, prefix: t.prefix })) })) };
}

/** Taggers sharing an experiment share one file; a tagger without one writes `attributes/<tagger>/`. */
function outputSets(input: string, taggers: ResolvedTagger[]): OutputSet[] {
  const sets = new Map<string, OutputSet>();
  for (const t of taggers) {
    const name = t.experiment ?? t.spec.name;
    const key = t.experiment === undefined ? `tagger:${name}` : `exp:${name}`;
    let set = sets.get(key);
    if (!set) {
      set = { name, path: attributePathFor(input, name), taggers: [] };
      sets.set(key, set);
    }
    set.taggers.push({ spec: t.spec, options: t.options, prefix: keyPrefix(t.experiment, t.spec.name) });
  }
  const paths = new Set<string>();
  for (const s of sets.values()) {
    if (paths.has(s.path)) throw new AssayError('CONFIG', `two attribute sets would write ${s.path}: an experiment is named like a tagger`, { field: 'experiment' });
    paths.add(s.path);
  }
  return [...sets.values()];
}

/** A per-file seed from the base seed and the file's path relative to cwd, so reruns reproduce it. */
function deriveSeed(base: number, _index: number, input: string, cwd: string): number {
  const rel = input.startsWith(cwd + '/') ? input.slice(cwd.length + 1) : input;
  const h = createHash('sha256').update(`${base}:${rel}`).digest();
  return h.readUInt32LE(0);
}
