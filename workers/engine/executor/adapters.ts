// Per verb: how a command splits into array tasks (a deterministic slice of its inputs) and what its final step does.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { listOption, stringOption, UsageError, type ParsedArgs } from '../cli/args.js';
import { stderrLine } from '../cli/stderr.js';
import { AssayError } from '../errors.js';
import { expandGlobs } from '../io/index.js';
import { tagSettingsFromText } from '../tag/config-file.js';
import { deconAdapter } from './decon.js';
import { dedupePlan, mergeDedupePartitions } from './dedupe.js';
import { mixPlan, runMixTask, finishMixRun } from './mix.js';
import { argvOf, EXECUTOR_FLAGS } from './settings.js';
import { importAdapter, indexAdapter, minhashAdapter, tokensAdapter, warcAdapter } from './stages.js';
import type { RunPlan, TaskPlan } from './state.js';

export interface PlannedRun {
  tasks: TaskPlan[];
  /** Array stages between the tasks and the final step (MinHash's buckets). */
  stages?: { name: string; tasks: TaskPlan[] }[];
  data: unknown;
  hasFinal: boolean;
}

export interface VerbAdapter {
  plan(args: ParsedArgs, executor: ExecutorConfig, cwd: string, dir: string): Promise<PlannedRun>;
  /** Runs task `i` in this process when its plan has no command line (mix slices); returns the exit code. */
  runTask?(run: RunPlan, i: number, dir: string, signal: AbortSignal): Promise<number>;
  /** Task `i` of a later array stage. */
  runStageTask?(run: RunPlan, stage: string, i: number, dir: string, signal: AbortSignal): Promise<number>;
  /** The final step, after every task succeeded: its command line, or work done here. */
  finalArgv?(run: RunPlan): string[];
  finalize?(run: RunPlan, dir: string, signal: AbortSignal): Promise<void>;
}

/** Files j, j+N, j+2N, … go to task j: deterministic for a sorted list, and even when file sizes are alike. */
export function assign<T>(items: readonly T[], tasks: number): T[][] {
  const out: T[][] = Array.from({ length: tasks }, () => []);
  items.forEach((item, j) => out[j % tasks]!.push(item));
  return out;
}

/** How many tasks: as asked, else one per input; never more than there are inputs. */
export function taskCount(executor: ExecutorConfig, inputs: number): number {
  return Math.max(1, Math.min(executor.tasks ?? inputs, inputs));
}

/**
 * A final step that runs the whole command again once every task marked its files done, to write what only the whole
 * run writes (run manifests). `--keep-existing`: the tasks did those files, so `--ignore-existing` (or
 * `ignore_existing: true` in the config) must not make one node redo them all.
 */
export const rerunSkippingDone = (run: RunPlan): string[] => [...run.argv, '--keep-existing'];

/** The inputs a cluster run splits into tasks (a folder link `**` does not follow is named on stderr, as a local run does). */
export async function resolvedInputs(globs: readonly string[], cwd: string, what: string): Promise<string[]> {
  const found = (await expandGlobs([...globs], { cwd, onNote: stderrLine })).map((p) => resolve(cwd, p)).sort();
  if (found.length === 0) throw new AssayError('CONFIG', `no ${what} match ${globs.map((g) => `'${g}'`).join(', ')}`, { field: 'documents' });
  return found;
}

/**
 * Documents files per task, each task running this same command on its slice (`--documents` replaced by the
 * slice's files; `drop`: more options the tasks leave out), then a final step (`rerunSkippingDone`). Tasks write no
 * run manifest (`--no-manifest`): their slices share the attribute set folders, two tasks ending together would write
 * the same manifest at once, and each would list its own slice only; the final step writes it for every file.
 */
export function filesPerTask(args: ParsedArgs, executor: ExecutorConfig, files: readonly string[], drop: readonly string[] = []): PlannedRun {
  const base = argvOf(args, [...EXECUTOR_FLAGS, 'documents', ...drop]);
  const tasks = assign(files, taskCount(executor, files.length)).map((slice) => ({ inputs: slice, argv: [...base, '--no-manifest', '--documents', ...slice] }));
  return { tasks, data: null, hasFinal: true };
}

const tag: VerbAdapter = {
  async plan(args, executor, cwd) {
    const configPath = stringOption(args, 'config');
    const fromFile = configPath ? tagSettingsFromText(await readFile(resolve(cwd, configPath), 'utf8'), configPath).documents : undefined;
    const documents = listOption(args, 'documents') ?? fromFile;
    if (!documents?.length) throw new UsageError('tag needs --documents GLOB… (or documents: in its config)');
    return filesPerTask(args, executor, await resolvedInputs(documents, cwd, 'documents'));
  },
  // Every file is marked complete by then, so the whole command only writes the attribute sets' run manifests.
  finalArgv: (run) => rerunSkippingDone(run),
};

export const ADAPTERS: Record<string, VerbAdapter> = {
  tag,
  dedupe: { plan: dedupePlan, finalize: mergeDedupePartitions },
  mix: { plan: mixPlan, runTask: runMixTask, finalize: finishMixRun },
  tokens: tokensAdapter,
  minhash: minhashAdapter,
  warc: warcAdapter,
  import: importAdapter,
  index: indexAdapter,
  decon: deconAdapter,
};
