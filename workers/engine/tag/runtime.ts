// `assay tag`: plan one task per documents file, skip completed ones by marker, run in-process or on a pool.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { segmentProblem } from '../../../shared/segment.js';
import { AssayError } from '../errors.js';
import { attributePathFor, expandGlobs, writeFileAtomic } from '../io/index.js';
import { workerEntry } from '../jobs/entry.js';
import { runPool } from '../jobs/pool.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { keyPrefix, tagFile, type FileResult, type FileTask, type OutputSet } from './file.js';
import { TaggerRegistry, type AnySpec } from './registry.js';

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
  taggerModules?: string[];
  /** Base seed for seeded taggers (random_number_v1); each file derives its own from it. */
  seed?: number;
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

/** Markers live in a hidden folder beside each output: `<dir>/.assay-done/<file>.json`. */
export const markerPath = (output: string): string => join(dirname(output), '.assay-done', `${basename(output)}.json`);

interface Marker {
  fingerprint: string;
  input: { size: number; mtimeMs: number };
  output: { size: number };
  docs: number;
  /** The taggers that wrote this file with their options as they ran (defaults filled in): the index's explanations read thresholds from them. */
  taggers?: { name: string; prefix: string; options: unknown }[];
}

async function isDone(input: string, outputs: string[], fp: string, opts: TagOptions): Promise<boolean> {
  if (opts.ignoreExisting) return false;
  const inStat = await stat(input);
  for (const out of outputs) {
    const outStat = await stat(out).catch(() => null);
    if (!outStat) return false;
    const marker = (await readFile(markerPath(out), 'utf8').then(JSON.parse, () => null)) as Marker | null;
    if (marker === null) {
      if (opts.skipExisting) continue;
      return false;
    }
    const same = marker.fingerprint === fp && marker.input.size === inStat.size && marker.input.mtimeMs === inStat.mtimeMs && marker.output.size === outStat.size;
    if (!same) return false;
  }
  return true;
}

export async function runTag(opts: TagOptions): Promise<TagSummary> {
  const started = performance.now();
  const cwd = opts.cwd ?? process.cwd();
  const registry = new TaggerRegistry();
  const modules = (opts.taggerModules ?? []).map((m) => resolve(cwd, m));
  for (const m of modules) await registry.loadModule(m, cwd);
  const taggers = await resolveTaggers(opts.taggers, registry, opts.experiment);
  const seed = opts.seed ?? 0;
  const fp = fingerprint(taggers, seed);
  const inputs = (await expandGlobs(opts.documents, { cwd })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no documents match ${opts.documents.map((d) => `'${d}'`).join(', ')}`, { field: 'documents' });

  const tasks: FileTask[] = [];
  const summary: TagSummary = { files: [], docs: 0, bytes: 0, badLines: 0, elapsedSec: 0, processes: 1 };
  let totalBytes = 0;
  for (const [i, input] of inputs.entries()) {
    const outputs = outputSets(input, taggers);
    const paths = outputs.map((o) => o.path);
    if (await isDone(input, paths, fp, opts)) {
      summary.files.push({ input, outputs: paths, status: 'skipped', docs: 0 });
      continue;
    }
    totalBytes += (await stat(input)).size;
    tasks.push({ input, outputs, seed: deriveSeed(seed, i, input, cwd), cwd });
  }
  const tracker = new ProgressTracker('tag', totalBytes, tasks.length, opts.onProgress);
  const processes = Math.max(1, Math.min(opts.processes ?? 1, tasks.length || 1));
  summary.processes = processes;
  const onDone = async (task: FileTask, r: FileResult): Promise<void> => {
    tracker.add({ files: 1 });
    const inStat = await stat(task.input);
    for (const o of task.outputs) {
      const marker: Marker = {
        fingerprint: fp, input: { size: inStat.size, mtimeMs: inStat.mtimeMs }, output: { size: (await stat(o.path)).size }, docs: r.docs,
        taggers: o.taggers.map((t) => ({ name: t.spec.name, prefix: t.prefix, options: t.options })),
      };
      await writeFileAtomic(markerPath(o.path), JSON.stringify(marker) + '\n', { mkdir: true });
    }
    summary.files.push({ input: task.input, outputs: task.outputs.map((o) => o.path), status: 'tagged', docs: r.docs });
    summary.docs += r.docs;
    summary.bytes += r.bytes;
    summary.badLines += r.badLines;
  };
  if (processes === 1) {
    for (const task of tasks) {
      const r = await tagFile(task, { signal: opts.signal, skipBadLines: opts.skipBadLines, onProgress: (d) => tracker.add(d), log: opts.log });
      await onDone(task, r);
    }
  } else {
    const pending: Promise<void>[] = [];
    await runPool<TagWorkerInit, WireTask, FileResult, { compressedBytes: number; bytes: number; docs: number }>(tasks.map(toWire), {
      entry: workerEntry('tag-worker', 'tag/worker.ts'),
      processes,
      init: { taggerModules: modules, cwd, skipBadLines: opts.skipBadLines ?? false },
      signal: opts.signal,
      onProgress: (_i, d) => tracker.add(d),
      onDone: (i, r) => void pending.push(onDone(tasks[i] as FileTask, r)),
      onLog: opts.log,
    });
    await Promise.all(pending);
  }
  tracker.emit();
  summary.elapsedSec = (performance.now() - started) / 1000;
  return summary;
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
