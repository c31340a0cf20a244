// A Slurm run's logging dir: the plan (run.json), one completion marker per finished task, task logs, scripts.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AssayError } from '../errors.js';
import { writeFileAtomic } from '../io/index.js';

export const RUN_SCHEMA = 'assay.slurm-run';

/** One array task: the files it reads (their sizes and mtimes decide whether its marker still holds) and what it runs. */
export interface TaskPlan {
  inputs: string[];
  /** The `assay` command line the task runs, or null when the verb's adapter runs it (mix slices). */
  argv: string[] | null;
}

export interface Submission {
  jobId: string;
  tasks: number[];
  /** Later array stages (MinHash's buckets), each chained with afterok on the one before. */
  stageJobs?: { name: string; jobId: string; tasks: number[] }[];
  /** The final step's job (mix summary and manifests, dedupe partition merge), chained with afterok. */
  finalJobId: string | null;
  at: string;
  /**
   * Set by `jobs cancel` (and the app's Cancel) before scancel: when, and the tasks (`taskKey`) that had already
   * failed then. Its other unfinished tasks read cancelled, whether or not slurmstepd's line reached their logs.
   */
  cancelled?: { at: string; failed: string[] };
}

/** A task's key in `Submission.cancelled.failed`: its stage (if any) and number. */
export const taskKey = (t: { task: number | 'final'; stage?: string }): string => `${t.stage ?? ''}:${t.task}`;

export interface RunPlan {
  schema: typeof RUN_SCHEMA;
  version: 1;
  verb: string;
  /** The command as given, without executor flags: a resubmission must be the same command. */
  argv: string[];
  cwd: string;
  tasks: TaskPlan[];
  /** Array stages after `tasks` and before the final step (MinHash: one task per bucket). */
  stages?: { name: string; tasks: TaskPlan[] }[];
  /** Verb-specific data the tasks and the final step need (the mix recipe, dedupe's partition outputs). */
  data: unknown;
  hasFinal: boolean;
  submissions: Submission[];
  created: string;
}

export interface InputStamp {
  path: string;
  size: number;
  mtimeMs: number;
}

export interface Completion {
  task: number | 'final';
  stage?: string;
  finished: string;
  inputs: InputStamp[];
  elapsedSec: number;
}

export const runFile = (dir: string): string => join(dir, 'run.json');
/** `task-N` of the first array, `STAGE-task-N` of a later stage, `final`. */
const slotName = (task: number | 'final', stage?: string): string => (task === 'final' ? 'final' : `${stage ? `${stage}-` : ''}task-${task}`);
export const completionFile = (dir: string, task: number | 'final', stage?: string): string => join(dir, 'completions', `${slotName(task, stage)}.json`);
export const logFile = (dir: string, task: number | 'final', stage?: string): string => join(dir, 'logs', `${slotName(task, stage)}.log`);

export async function readRun(dir: string): Promise<RunPlan | null> {
  let text: string;
  try {
    text = await readFile(runFile(dir), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new AssayError('IO', `cannot read: ${(e as Error).message}`, { file: runFile(dir) });
  }
  let run: RunPlan;
  try {
    run = JSON.parse(text) as RunPlan;
  } catch (e) {
    throw new AssayError('PARSE', `not JSON (${(e as Error).message}); a damaged run plan: remove the logging dir to start over`, { file: runFile(dir) });
  }
  if (run.schema !== RUN_SCHEMA || run.version !== 1) throw new AssayError('PARSE', `not an Assay Slurm run plan (schema ${String(run.schema)} v${String(run.version)})`, { file: runFile(dir) });
  return run;
}

export async function writeRun(dir: string, run: RunPlan): Promise<void> {
  await writeFileAtomic(runFile(dir), JSON.stringify(run, null, 2) + '\n', { mkdir: true });
}

/**
 * Stats taken once per look at a run: dedupe's, MinHash's bucket and the final step's markers each list every
 * input, and the app polls the status every second, so without it a run of F files and T such tasks costs F×T stats.
 */
export type StampCache = Map<string, Promise<InputStamp>>;

const stampOf = async (path: string): Promise<InputStamp> => {
  const s = await stat(path);
  return { path, size: s.size, mtimeMs: s.mtimeMs };
};

export async function stampInputs(paths: readonly string[], cache?: StampCache): Promise<InputStamp[]> {
  if (cache === undefined) return Promise.all(paths.map(stampOf));
  return Promise.all(paths.map((path) => {
    let p = cache.get(path);
    if (p === undefined) cache.set(path, (p = stampOf(path)));
    return p;
  }));
}

/** The task's marker when it exists and its inputs are unchanged since it ran; otherwise the task has to run. */
export async function validCompletion(dir: string, task: number | 'final', inputs: readonly string[], stage?: string, cache?: StampCache): Promise<Completion | null> {
  let c: Completion;
  try {
    c = JSON.parse(await readFile(completionFile(dir, task, stage), 'utf8')) as Completion;
  } catch {
    return null;
  }
  const now = await stampInputs(inputs, cache).catch(() => null);
  if (now === null || now.length !== c.inputs.length) return null;
  return now.every((s, i) => s.path === c.inputs[i]?.path && s.size === c.inputs[i]?.size && s.mtimeMs === c.inputs[i]?.mtimeMs) ? c : null;
}

export async function markComplete(dir: string, task: number | 'final', inputs: readonly string[], elapsedSec: number, stage?: string): Promise<void> {
  const c: Completion = { task, ...(stage ? { stage } : {}), finished: new Date().toISOString(), inputs: await stampInputs(inputs), elapsedSec };
  await writeFileAtomic(completionFile(dir, task, stage), JSON.stringify(c) + '\n', { mkdir: true });
}

/** Indices of a task list whose markers still hold. */
export async function doneTasks(dir: string, tasks: readonly TaskPlan[], stage?: string, cache: StampCache = new Map()): Promise<number[]> {
  const out: number[] = [];
  for (const [i, t] of tasks.entries()) if ((await validCompletion(dir, i, t.inputs, stage, cache)) !== null) out.push(i);
  return out;
}
