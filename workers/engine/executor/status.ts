// `assay jobs status`: each task done / running / pending / failed from its marker, squeue and its log.
import { readFile } from 'node:fs/promises';
import { AssayError } from '../errors.js';
import { queued } from './slurm.js';
import { logFile, readRun, validCompletion, type RunPlan } from './state.js';

export type TaskState = 'done' | 'running' | 'pending' | 'failed' | 'cancelled' | 'not submitted';

export interface TaskStatus {
  task: number | 'final';
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

async function stateOf(dir: string, run: RunPlan, task: number | 'final', inputs: string[], queue: Map<number | 'final', string>): Promise<TaskStatus> {
  if ((await validCompletion(dir, task, inputs)) !== null) return { task, state: 'done', inputs, tail: [] };
  const q = queue.get(task);
  if (q !== undefined) return { task, state: q === 'RUNNING' || q === 'COMPLETING' ? 'running' : 'pending', inputs, tail: [] };
  const submitted = run.submissions.some((s) => (task === 'final' ? s.finalJobId !== null : s.tasks.includes(task)));
  const tail = await tailOf(logFile(dir, task));
  if (!submitted) return { task, state: 'not submitted', inputs, tail: [] };
  // Submitted, gone from the queue, no marker: it ran and did not finish (or never started, e.g. its dependency failed).
  if (tail === null) return { task, state: task === 'final' ? 'cancelled' : 'failed', inputs, tail: ['(no log: the task never started)'] };
  return { task, state: tail.some((l) => /CANCELLED/.test(l)) ? 'cancelled' : 'failed', inputs, tail };
}

export async function runStatus(dir: string): Promise<RunStatus> {
  const run = await readRun(dir);
  if (run === null) throw new AssayError('IO', 'no Assay Slurm run here (run.json is missing)', { file: dir });
  const last = run.submissions.at(-1);
  const queue = await queued(last ? [last.jobId, last.finalJobId ?? ''].filter((j) => j !== '') : []);
  const tasks: TaskStatus[] = [];
  for (const [i, t] of run.tasks.entries()) tasks.push(await stateOf(dir, run, i, t.inputs, queue));
  if (run.hasFinal) tasks.push(await stateOf(dir, run, 'final', run.tasks.flatMap((t) => t.inputs), queue));
  const counts: Record<TaskState, number> = { done: 0, running: 0, pending: 0, failed: 0, cancelled: 0, 'not submitted': 0 };
  for (const t of tasks) if (t.task !== 'final') counts[t.state]++;
  const final = tasks.find((t) => t.task === 'final');
  const active = counts.running + counts.pending + (final?.state === 'running' || final?.state === 'pending' ? 1 : 0);
  const failed = active === 0 && (counts.failed + counts.cancelled > 0 || final?.state === 'failed' || final?.state === 'cancelled');
  const lines = [`${dir}: assay ${run.argv.join(' ')}`];
  lines.push(
    `  tasks ${run.tasks.length}: ${(['done', 'running', 'pending', 'failed', 'cancelled', 'not submitted'] as const).filter((k) => counts[k] > 0).map((k) => `${counts[k]} ${k}`).join(', ')}` +
      (final ? `; final step ${final.state === 'cancelled' && counts.done < run.tasks.length ? 'not run (it needs every task)' : final.state}` : ''),
  );
  for (const t of tasks.filter((x) => x.task !== 'final' || counts.done === run.tasks.length).filter((x) => x.state === 'failed' || x.state === 'cancelled')) {
    lines.push(`  task ${t.task} ${t.state}; inputs: ${t.inputs.slice(0, 5).join(', ')}${t.inputs.length > 5 ? ` and ${t.inputs.length - 5} more` : ''}`);
    lines.push(`    log ${logFile(dir, t.task)}:`, ...(t.tail.length ? t.tail : ['(empty: the task was killed before it wrote anything)']).map((l) => `    | ${l}`));
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
