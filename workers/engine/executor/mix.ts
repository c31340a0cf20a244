// Mix on Slurm: task i mixes shards k ≡ i (mod N) under their final names; the final step writes ledgers and manifests.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { MixerConfig } from '../../../shared/recipe/schema.js';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { stringOption, UsageError, type ParsedArgs } from '../cli/args.js';
import { formatSummary } from '../cli/mix.js';
import { stderrLine } from '../cli/stderr.js';
import { writeFileAtomic } from '../io/index.js';
import { loadMixerConfig } from '../mix/config.js';
import { finishMixSlices, runMixSlice, type SliceResult } from '../mix/mixer.js';
import { planStreams } from '../mix/plan.js';
import type { PlannedRun } from './adapters.js';
import type { RunPlan } from './state.js';

interface MixData {
  config: MixerConfig;
  ledger: boolean;
}

const sliceFile = (dir: string, task: number): string => join(dir, 'mix', `task-${task}.json`);

export async function mixPlan(args: ParsedArgs, executor: ExecutorConfig, cwd: string): Promise<PlannedRun> {
  const path = stringOption(args, 'config');
  if (path === undefined) throw new UsageError('mix needs a recipe: assay mix -c recipe.yaml');
  const config = await loadMixerConfig(resolve(cwd, path));
  const resolved = { ...config, streams: config.streams.map((s) => ({ ...s, output: { ...s.output, path: resolve(cwd, s.output.path) } })) };
  // The same planner the mixer uses: shard k of this list is shard k in every task, so names never collide.
  const shards = (await planStreams(resolved, cwd, stderrLine)).flatMap((p) => p.tasks);
  const n = Math.max(1, Math.min(executor.tasks ?? shards.length, shards.length));
  const tasks = Array.from({ length: n }, (_, i) => ({ inputs: shards.filter((_, k) => k % n === i).flatMap((s) => s.inputs), argv: null }));
  return { tasks, data: { config, ledger: args.options.get('no-ledger') !== true } satisfies MixData, hasFinal: true };
}

export async function runMixTask(run: RunPlan, i: number, dir: string, signal: AbortSignal): Promise<number> {
  const { config, ledger } = run.data as MixData;
  const r = await runMixSlice(config, { cwd: run.cwd, slice: { task: i, of: run.tasks.length }, ledger, signal, log: stderrLine });
  await writeFileAtomic(sliceFile(dir, i), JSON.stringify(r) + '\n', { mkdir: true });
  process.stdout.write(`task ${i}: mixed ${r.shards.length} shard(s), ${r.stats.reduce((a, s) => a + s.kept, 0)} document(s) kept\n`);
  return 0;
}

export async function finishMixRun(run: RunPlan, dir: string): Promise<void> {
  const { config, ledger } = run.data as MixData;
  const slices: SliceResult[] = [];
  for (let i = 0; i < run.tasks.length; i++) slices.push(JSON.parse(await readFile(sliceFile(dir, i), 'utf8')) as SliceResult);
  const summary = await finishMixSlices(config, slices, new Date(run.created), { cwd: run.cwd, ledger });
  process.stdout.write(formatSummary(summary));
}
