// `assay jobs status`: each task done / running / pending / failed from its marker, squeue and its log.
import { readFile } from 'node:fs/promises';
import { AssayError } from '../errors.js';
import { queued } from './slurm.js';
import { logFile, readRun, taskKey, validCompletion, type RunPlan, type StampCache, type Submission } from './state.js';

export type TaskState = 'done' | 'running' | 'pending' | 'failed' | 'cancelled' | 'not submitted';

export interface TaskStatus {
  task: number | 'final';
  /** A later array stage's name (MinHash: `buckets`); absent for the first array and the final step. */
  stage?: string;
  state: TaskState;
  inputs: string[];
  /** The last lines of a failed task's log. */
  tail: string[];
}

export interface RunStatus {
  dir: string;
  run: RunPlan;
  tasks: TaskStatus[];
  counts: Record<TaskState, number>;
  failed: boolean;
  finished: boolean;
  lines: string[];
}

async function tailOf(path: string, n = 12): Promise<string[] | null> {
  try {
    const lines = (await readFile(path, 'utf8')).replace(/\r/g, '\n').split('\n').filter((l) => l.trim() !== '');
    return lines.slice(-n);
  } catch {
    return null;
  }
}

/** The job a task was last submitted in (`ARRAYJOB_TASK` or the final step's job id) and that submission; null when never submitted. */
function jobKey(run: RunPlan, task: number | 'final', stage?: string): { key: string; sub: Submission } | null {
  for (const sub of [...run.submissions].reverse()) {
    if (task === 'final') {
      if (sub.finalJobId) return { key: sub.finalJobId, sub };
    } else if (stage === undefined) {
      if (sub.tasks.includes(task)) return { key: `${sub.jobId}_${task}`, sub };
    } else {
      const j = sub.stageJobs?.find((x) => x.name === stage && x.tasks.includes(task));
      if (j) return { key: `${j.jobId}_${task}`, sub };
    }
  }
  return null;
}

/** The tail of a submitted task without a log. */
export const NEVER_STARTED = '(no log: the task never started)';

async function stateOf(dir: string, run: RunPlan, task: number | 'final', inputs: string[], queue: Map<string, string>, cache: StampCache, stage?: string): Promise<TaskStatus> {
  const base = { task, ...(stage ? { stage } : {}), inputs };
  if ((await validCompletion(dir, task, inputs, stage, cache)) !== null) return { ...base, state: 'done', tail: [] };
  const job = jobKey(run, task, stage);
  if (job === null) return { ...base, state: 'not submitted', tail: [] };
  // A cancel stopped it unless it had failed before: its log may not say so yet (or ever, if a message was lost).
  const stopped = job.sub.cancelled !== undefined && !job.sub.cancelled.failed.includes(taskKey({ task, stage }));
  const q = queue.get(job.key);
  // Once cancelled, a task Slurm is still tearing down is over: a lost completion message keeps it COMPLETING for minutes.
  if (q === 'COMPLETING' && stopped) return { ...base, state: 'cancelled', tail: (await tailOf(logFile(dir, task, stage))) ?? [NEVER_STARTED] };
  if (q !== undefined) return { ...base, state: q === 'RUNNING' || q === 'COMPLETING' ? 'running' : 'pending', tail: [] };
  // Submitted, gone from the queue, no marker: it ran and did not finish (or never started: a dependency failed).
  const tail = await tailOf(logFile(dir, task, stage));
  if (tail === null) return { ...base, state: stopped || task === 'final' || stage !== undefined ? 'cancelled' : 'failed', tail: [NEVER_STARTED] };
  return { ...base, state: stopped || tail.some((l) => /CANCELLED/.test(l)) ? 'cancelled' : 'failed', tail };
}

const STATES = ['done', 'running', 'pending', 'failed', 'cancelled', 'not submitted'] as const;
const countsOf = (tasks: readonly TaskStatus[]): Record<TaskState, number> => {
  const c: Record<TaskState, number> = { done: 0, running: 0, pending: 0, failed: 0, cancelled: 0, 'not submitted': 0 };
  for (const t of tasks) c[t.state]++;
  return c;
};
const countText = (c: Record<TaskState, number>): string => STATES.filter((k) => c[k] > 0).map((k) => `${c[k]} ${k}`).join(', ');

/** Every job id of a submission: its array, its later stages' arrays and its final step. */
export const submissionJobIds = (s: Submission): string[] => [s.jobId, ...(s.stageJobs ?? []).map((j) => j.jobId), s.finalJobId ?? ''].filter((j) => j !== '');

/** `look`: what squeue says of these jobs (tests pass a fake). */
export async function runStatus(dir: string, look: (ids: readonly string[]) => Promise<Map<string, string>> = queued): Promise<RunStatus> {
  const run = await readRun(dir);
  if (run === null) throw new AssayError('IO', 'no Assay Slurm run here (run.json is missing)', { file: dir });
  const queue = await look([...new Set(run.submissions.flatMap(submissionJobIds))]);
  const tasks: TaskStatus[] = [];
  const cache: StampCache = new Map();
  for (const [i, t] of run.tasks.entries()) tasks.push(await stateOf(dir, run, i, t.inputs, queue, cache));
  for (const st of run.stages ?? []) for (const [i, t] of st.tasks.entries()) tasks.push(await stateOf(dir, run, i, t.inputs, queue, cache, st.name));
  if (run.hasFinal) tasks.push(await stateOf(dir, run, 'final', run.tasks.flatMap((t) => t.inputs), queue, cache));
  const first = tasks.filter((t) => t.task !== 'final' && t.stage === undefined);
  const counts = countsOf(first);
  const final = tasks.find((t) => t.task === 'final');
  const active = tasks.filter((t) => t.state === 'running' || t.state === 'pending').length;
  const failed = active === 0 && tasks.some((t) => t.state === 'failed' || t.state === 'cancelled');
  const allBefore = tasks.filter((t) => t.task !== 'final').every((t) => t.state === 'done');
  const lines = [`${dir}: assay ${run.argv.join(' ')}`];
  lines.push(
    `  tasks ${run.tasks.length}: ${countText(counts)}` +
      (run.stages ?? []).map((st) => `; ${st.name} ${st.tasks.length}: ${countText(countsOf(tasks.filter((t) => t.stage === st.name)))}`).join('') +
      (final ? `; final step ${final.state === 'cancelled' && !allBefore ? 'not run (it needs every task)' : final.state}` : ''),
  );
  // A stage that never ran because an earlier one failed is not a failure of its own: only real failures are listed.
  const listed = tasks.filter((x) => (x.state === 'failed' || x.state === 'cancelled') && !(x.tail[0] === NEVER_STARTED && (x.task === 'final' || x.stage !== undefined)));
  for (const t of listed) {
    const name = `${t.stage ? `${t.stage} ` : ''}task ${t.task}`;
    lines.push(`  ${name} ${t.state}; inputs: ${t.inputs.slice(0, 5).join(', ')}${t.inputs.length > 5 ? ` and ${t.inputs.length - 5} more` : ''}`);
    lines.push(`    log ${logFile(dir, t.task, t.stage)}:`, ...(t.tail.length ? t.tail : ['(empty: the task was killed before it wrote anything)']).map((l) => `    | ${l}`));
  }
  return { dir, run, tasks, counts, failed, finished: active === 0, lines };
}

/** Polls until nothing of the run is queued. */
export async function waitForRun(dir: string, signal?: AbortSignal, pollMs = 500): Promise<RunStatus> {
  for (;;) {
    const s = await runStatus(dir);
    if (s.finished) return s;
    if (signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
