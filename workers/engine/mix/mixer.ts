// `assay mix`: plan shards, run them in-process or on a child-process pool, and summarise per stream.
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MixerConfig } from '../../../shared/recipe/schema.js';
import { discardTemp, promoteTemp, writeFileAtomic } from '../io/index.js';
import { lockOutputFolders } from '../io/output-lock.js';
import { workerEntry } from '../jobs/entry.js';
import { runPool } from '../jobs/pool.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { sourceCounts, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { discardParts, mergeLedger, partPathFor } from '../ledger/merge.js';
import { ledgerPathFor } from '../ledger/schema.js';
import { manifestPathFor } from '../manifest/schema.js';
import { compileStream, type CompiledStream, type DropReason } from './compile.js';
import { planStreams, type StreamPlan } from './plan.js';
import { processShard, type ShardOptions, type ShardStats, type ShardTask } from './shard.js';

export interface MixOptions {
  /** Directory relative paths resolve against (Dolma: the working directory). */
  cwd?: string;
  /** Overrides the config's `processes`. */
  processes?: number;
  skipBadLines?: boolean;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
  jqTimeoutMs?: number;
  /** Write the removal ledger `<output>/.assay/ledger.sqlite` (default true; `assay mix --no-ledger`). */
  ledger?: boolean;
  /**
   * One array task of a Slurm run: mix only shards k with k % of === task, publish them, keep their ledger parts
   * and return their stats; `finishMixSlices` then writes ledgers, summaries and manifests once for all tasks.
   */
  slice?: { task: number; of: number };
}

/** What one slice did: its shards' stats, by index in the full run's shard list. */
export interface SliceResult {
  shards: number[];
  stats: ShardStats[];
}

export interface StreamSummary {
  name: string;
  output: string;
  files: number;
  shards: string[];
  docs: { read: number; kept: number; dropped: number };
  /** First rule that fired, per rule, in recipe order (rules that dropped nothing included). */
  droppedBy: (DropReason & { docs: number })[];
  bytes: { in: number; out: number };
  badLines: { count: number; samples: string[] };
  summaryFile: string;
}

export interface MixSummary {
  streams: StreamSummary[];
  elapsedSec: number;
  processes: number;
}

export type ShardDelta = { compressedBytes: number; bytes: number; docs: number };
export interface ShardJob {
  task: ShardTask;
  options: Pick<ShardOptions, 'inputCodec' | 'outputCodec' | 'skipBadLines' | 'allowMissingAttributes' | 'ledgerPart' | 'ledgerAppend'>;
}
export interface MixWorkerInit {
  config: MixerConfig;
  jqTimeoutMs: number | undefined;
}

export async function runMix(config: MixerConfig, opts: MixOptions = {}): Promise<MixSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const planned = await planMix(config, opts);
  const release = await lockOutputFolders(outputFolders(planned.cfg), 'assay mix', opts.log);
  try {
    return await mixLocked(config, planned, opts, started, startedAt);
  } finally {
    release();
  }
}

async function mixLocked(config: MixerConfig, planned: PlannedMix, opts: MixOptions, started: number, startedAt: Date): Promise<MixSummary> {
  const { cfg, compiled, plans } = planned;
  const tracker = new ProgressTracker('mix', plans.reduce((a, p) => a + p.inputs.reduce((b, i) => b + i.size, 0), 0), plans.reduce((a, p) => a + p.inputs.length, 0), opts.onProgress);
  // One shard runs in this process whatever was asked (mixShards): the summary says how many really ran.
  const processes = Math.max(1, Math.min(opts.processes ?? cfg.processes, planned.jobs.length));
  const jobs = processes === 1 ? sharePartsInProcess(planned.jobs, cfg) : planned.jobs;
  let stats: ShardStats[];
  try {
    stats = await mixShards(jobs, cfg, compiled, processes, tracker, opts);
  } catch (e) {
    // A failed or cancelled run publishes nothing: completed shards stay temporary and are removed.
    await Promise.all(jobs.map((j) => discardTemp(j.task.output)));
    await Promise.all(outputFolders(cfg).map(discardParts));
    throw e;
  }
  for (const job of jobs) await promoteTemp(job.task.output);
  tracker.emit();
  return finishMix(config, cfg, compiled, plans, jobs, stats, startedAt, started, processes, opts, true);
}

/**
 * Shards mixed one after another in this process write one ledger part per output folder (each shard after the
 * first appends to it), which the merge then takes over as the ledger: nothing is copied. A failed run discards it.
 */
function sharePartsInProcess(jobs: readonly ShardJob[], cfg: MixerConfig): ShardJob[] {
  const shared = new Map<string, string>();
  return jobs.map((j) => {
    if (j.options.ledgerPart === undefined) return j;
    const folder = cfg.streams[j.task.stream]!.output.path;
    const part = shared.get(folder);
    if (part === undefined) {
      shared.set(folder, j.options.ledgerPart);
      return j;
    }
    return { ...j, options: { ...j.options, ledgerPart: part, ledgerAppend: true } };
  });
}

/** One slice of a Slurm run (see `MixOptions.slice`): its shards published, their ledger parts kept for the final step. */
export async function runMixSlice(config: MixerConfig, opts: MixOptions & { slice: { task: number; of: number } }): Promise<SliceResult> {
  const { cfg, compiled, plans, jobs } = await planMix(config, opts);
  const shards = jobs.flatMap((_, k) => (k % opts.slice.of === opts.slice.task ? [k] : []));
  const mine = shards.map((k) => jobs[k] as ShardJob);
  const sizes = new Map(plans.flatMap((p) => p.inputs.map((i) => [i.path, i.size] as const)));
  const bytes = mine.reduce((a, j) => a + j.task.inputs.reduce((b, path) => b + (sizes.get(path) ?? 0), 0), 0);
  const tracker = new ProgressTracker('mix', bytes, mine.reduce((a, j) => a + j.task.inputs.length, 0), opts.onProgress);
  let stats: ShardStats[];
  try {
    stats = await mixShards(mine, cfg, compiled, Math.max(1, opts.processes ?? cfg.processes), tracker, opts);
  } catch (e) {
    await Promise.all(mine.map((j) => discardTemp(j.task.output)));
    await Promise.all(mine.map((j) => (j.options.ledgerPart ? rm(j.options.ledgerPart, { force: true }) : undefined)));
    throw e;
  }
  for (const job of mine) await promoteTemp(job.task.output);
  return { shards, stats };
}

/** The final step of a Slurm run: every slice's stats in shard order → ledgers, per-stream summaries, manifests. */
export async function finishMixSlices(config: MixerConfig, slices: readonly SliceResult[], startedAt: Date, opts: MixOptions = {}): Promise<MixSummary> {
  const started = performance.now();
  const { cfg, compiled, plans, jobs } = await planMix(config, opts);
  const stats: ShardStats[] = new Array<ShardStats>(jobs.length);
  for (const s of slices) s.shards.forEach((k, i) => (stats[k] = s.stats[i] as ShardStats));
  const missing = jobs.findIndex((_, k) => stats[k] === undefined);
  if (missing >= 0) throw new Error(`shard ${missing} (${jobs[missing]?.task.output}) has no result from any task`);
  return finishMix(config, cfg, compiled, plans, jobs, stats, startedAt, started, slices.length, opts);
}

async function finishMix(
  config: MixerConfig,
  cfg: MixerConfig,
  compiled: CompiledStream[],
  plans: StreamPlan[],
  jobs: ShardJob[],
  stats: ShardStats[],
  startedAt: Date,
  started: number,
  processes: number,
  opts: MixOptions,
  ownParts = false,
): Promise<MixSummary> {
  await writeLedgers(cfg, compiled, jobs, opts.ledger !== false, ownParts);
  const streams = await Promise.all(plans.map((p) => summarise(p, cfg, compiled[p.stream] as CompiledStream, stats, jobs)));
  await writeManifests(cfg, config, startedAt, stats, jobs);
  return { streams, elapsedSec: (performance.now() - started) / 1000, processes };
}

/** Streams compiled (a bad expression fails before any output is written) and planned into shard jobs. */
interface PlannedMix {
  cfg: MixerConfig;
  compiled: CompiledStream[];
  plans: StreamPlan[];
  jobs: ShardJob[];
}

async function planMix(config: MixerConfig, opts: MixOptions): Promise<PlannedMix> {
  const cwd = opts.cwd ?? process.cwd();
  const cfg = resolvePaths(config, cwd);
  const compiled = cfg.streams.map((s, i) => compileStream(s, `streams[${i}]`, { jqTimeoutMs: opts.jqTimeoutMs }));
  const plans = await planStreams(cfg, cwd, opts.log);
  const jobs: ShardJob[] = plans.flatMap((p) =>
    p.tasks.map((task) => ({
      task,
      options: {
        inputCodec: p.inputCodec,
        outputCodec: p.outputCodec,
        skipBadLines: opts.skipBadLines ?? false,
        allowMissingAttributes: cfg.streams[p.stream]?.assay?.allow_missing_attributes ?? false,
        ...(opts.ledger === false ? {} : { ledgerPart: partPathFor(cfg.streams[p.stream]!.output.path, task.output) }),
      },
    })),
  );
  return { cfg, compiled, plans, jobs };
}

async function mixShards(
  jobs: ShardJob[],
  cfg: MixerConfig,
  compiled: CompiledStream[],
  processes: number,
  tracker: ProgressTracker,
  opts: MixOptions,
): Promise<ShardStats[]> {
  let stats: ShardStats[];
  if (processes === 1 || jobs.length === 1) {
    stats = [];
    for (const job of jobs) {
      const stream = cfg.streams[job.task.stream]!;
      stats.push(
        await processShard(job.task, stream, compiled[job.task.stream] as CompiledStream, {
          ...job.options,
          signal: opts.signal,
          onProgress: (d) => tracker.add(d),
          log: opts.log,
        }),
      );
      tracker.add({ files: job.task.inputs.length });
    }
  } else {
    stats = await runPool<MixWorkerInit, ShardJob, ShardStats, ShardDelta>(jobs, {
      entry: workerEntry('mix-worker', 'mix/worker.ts'),
      processes,
      init: { config: cfg, jqTimeoutMs: opts.jqTimeoutMs },
      signal: opts.signal,
      onProgress: (_i, d) => tracker.add(d),
      onDone: (i) => tracker.add({ files: jobs[i]?.task.inputs.length ?? 0 }),
      onLog: opts.log,
    });
  }
  return stats;
}

/**
 * One manifest per output folder (`output.path`; streams sharing one share it): the documents and attribute files
 * its shards read, with the hashes the readers computed, and each shard with kept documents per source.
 */
async function writeManifests(cfg: MixerConfig, asGiven: MixerConfig, started: Date, stats: readonly ShardStats[], jobs: readonly ShardJob[]): Promise<void> {
  const folders = new Map<string, { inputs: InputRecord[]; outputs: OutputRecord[] }>();
  stats.forEach((s, i) => {
    const folder = cfg.streams[(jobs[i] as ShardJob).task.stream]!.output.path;
    let f = folders.get(folder);
    if (!f) folders.set(folder, (f = { inputs: [], outputs: [] }));
    f.inputs.push(...s.digests);
    const tokens = Object.values(s.bySource).reduce((n, c) => n + c.tokens, 0);
    f.outputs.push({ path: s.output, role: 'documents', size: s.bytesStored, sha256: s.sha256, docs: s.kept, tokens: { count: tokens, kind: 'estimate' }, bySource: sourceCounts(s.bySource, 'estimate') });
  });
  const cache = new Map();
  for (const [folder, f] of folders) await writeRunManifest(folder, { stage: 'mix', started, config: asGiven }, f.inputs, f.outputs, cache);
}

const outputFolders = (cfg: MixerConfig): string[] => [...new Set(cfg.streams.map((s) => s.output.path))];

/**
 * One ledger per output folder, merged from its shards' parts in shard order. Without a ledger, one left by an
 * earlier run into the same folder is removed: it would describe shards that no longer exist. `ownParts`: the parts
 * are this run's alone (not a Slurm run's, whose final step may be retried), so the first can become the ledger.
 */
async function writeLedgers(cfg: MixerConfig, compiled: readonly CompiledStream[], jobs: readonly ShardJob[], ledger: boolean, ownParts: boolean): Promise<void> {
  for (const folder of outputFolders(cfg)) {
    if (!ledger) {
      await rm(ledgerPathFor(folder), { force: true });
      continue;
    }
    const streams = cfg.streams.flatMap((s, index) => (s.output.path === folder ? [{ index, name: s.name, reasons: (compiled[index] as CompiledStream).reasons }] : []));
    const parts = jobs.flatMap((j) => (cfg.streams[j.task.stream]!.output.path === folder && j.options.ledgerPart !== undefined && !j.options.ledgerAppend ? [j.options.ledgerPart] : []));
    await mergeLedger(folder, streams, parts, { manifest: manifestPathFor(folder) }, ownParts);
    await discardParts(folder);
  }
}

/** Relative paths resolve against the working directory (as in Dolma); resolve once so workers agree. */
function resolvePaths(config: MixerConfig, cwd: string): MixerConfig {
  return {
    ...config,
    streams: config.streams.map((s) => ({ ...s, output: { ...s.output, path: /^s3:\/\//i.test(s.output.path) ? s.output.path : resolve(cwd, s.output.path) } })),
  };
}

async function summarise(plan: StreamPlan, cfg: MixerConfig, compiled: CompiledStream, all: ShardStats[], jobs: ShardJob[]): Promise<StreamSummary> {
  const mine = all.filter((_, i) => jobs[i]?.task.stream === plan.stream);
  const dropped = compiled.reasons.map((r, k) => ({ ...r, docs: mine.reduce((a, s) => a + (s.dropped[k] ?? 0), 0) }));
  const stream = cfg.streams[plan.stream]!;
  const outputDir = stream.output.path;
  const summaryFile = join(outputDir, '.assay', `mix-summary-${plan.name}.json`);
  const summary: StreamSummary = {
    name: plan.name,
    output: outputDir,
    files: plan.inputs.length,
    shards: mine.map((s) => s.output),
    docs: {
      read: mine.reduce((a, s) => a + s.docsRead, 0),
      kept: mine.reduce((a, s) => a + s.kept, 0),
      dropped: dropped.reduce((a, d) => a + d.docs, 0),
    },
    // Rules the recipe does not have (no include list, min_text_length 0) are left out.
    droppedBy: dropped.filter((d) =>
      d.key === 'include'
        ? (stream.filter?.include.length ?? 0) > 0
        : d.key === 'min_text_length'
          ? stream.output.min_text_length > 0
          : d.key === 'sample'
            ? compiled.sampling.samples
            : true,
    ),
    bytes: { in: mine.reduce((a, s) => a + s.bytesIn, 0), out: mine.reduce((a, s) => a + s.bytesOut, 0) },
    badLines: { count: mine.reduce((a, s) => a + s.badLines, 0), samples: mine.flatMap((s) => s.badLineSamples).slice(0, 20) },
    summaryFile,
  };
  await mkdir(join(outputDir, '.assay'), { recursive: true });
  await writeFileAtomic(summaryFile, JSON.stringify(summary, null, 2) + '\n');
  return summary;
}
