// The engine's `jobs status` (RunStatus) as the contract's SlurmRun: paths workspace-relative, inputs and log tails only where a task failed.
import { isAbsolute, relative } from 'node:path';
import type { SlurmRun, SlurmTask } from '../../../shared/contract/index.js';
import type { RunStatus } from '../../engine/executor/status.js';
import { logFile } from '../../engine/executor/state.js';

/** Inputs listed per failed task: enough to name the bad file, bounded for a task that reads thousands. */
const MAX_INPUTS = 20;

export function relativeTo(root: string, path: string): string {
  const r = relative(root, path);
  return r === '' ? '.' : r.startsWith('..') || isAbsolute(r) ? path : r;
}

/** The job ids this app job submitted: the last submission's array, its later stages' arrays and the final step. */
export function submittedJobIds(status: Pick<RunStatus, 'run'>): string[] {
  const last = status.run.submissions.at(-1);
  return last ? [last.jobId, ...(last.stageJobs ?? []).map((j) => j.jobId), last.finalJobId ?? ''].filter((j) => j !== '') : [];
}

/** A task's key in a view: its stage (if any) and number. */
export const taskKey = (t: { task: number | 'final'; stage?: string }): string => `${t.stage ?? ''}:${t.task}`;

/** The tasks that read failed in `status`: what had failed on its own before a cancel. */
export const failedNow = (status: RunStatus): Set<string> => new Set(status.tasks.filter((t) => t.state === 'failed').map(taskKey));

/**
 * `failedBeforeCancel`: set once this job was cancelled, to the tasks that had already failed then.
 * Any other task that reads failed reads cancelled: scancel stopped it, whether it never started
 * (its pending element was removed, its dependency never held) or was killed before slurmstepd's
 * CANCELLED line reached its log (or the line never did: a lost completion message).
 */
export function slurmView(root: string, status: RunStatus, failedBeforeCancel?: ReadonlySet<string>): SlurmRun {
  const tasks: SlurmTask[] = status.tasks.map((t) => {
    const state = failedBeforeCancel && t.state === 'failed' && !failedBeforeCancel.has(taskKey(t)) ? 'cancelled' : t.state;
    const out: SlurmTask = { task: t.task, ...(t.stage ? { stage: t.stage } : {}), state, inputCount: t.inputs.length };
    if (state === 'failed' || state === 'cancelled') {
      out.inputs = t.inputs.slice(0, MAX_INPUTS).map((p) => relativeTo(root, p));
      out.tail = t.tail;
      out.log = relativeTo(root, logFile(status.dir, t.task, t.stage));
    }
    return out;
  });
  const counts = { ...status.counts };
  if (failedBeforeCancel) {
    const relabelled = tasks.filter((t, i) => t.task !== 'final' && t.stage === undefined && t.state !== status.tasks[i]?.state).length;
    counts.failed -= relabelled;
    counts.cancelled += relabelled;
  }
  return { loggingDir: relativeTo(root, status.dir), jobIds: submittedJobIds(status), tasks, counts, finished: status.finished, failed: status.failed };
}

/** Tasks done / all tasks, the final step counted as one more. */
export function tasksProgress(view: SlurmRun): { done: number; total: number } {
  return { done: view.tasks.filter((t) => t.state === 'done').length, total: view.tasks.length };
}

/** One line per failed task, naming its inputs and its log's last line: the job's error. */
export function failureText(view: SlurmRun): string {
  const bad = view.tasks.filter((t) => t.state === 'failed' || t.state === 'cancelled');
  const lines = bad.map((t) => {
    const name = t.task === 'final' ? 'the final step' : `${t.stage ? `${t.stage} ` : ''}task ${t.task}`;
    const inputs = t.task === 'final' ? '' : ` (inputs: ${(t.inputs ?? []).slice(0, 3).join(', ')}${t.inputCount > 3 ? ` and ${t.inputCount - 3} more` : ''})`;
    return `${name} ${t.state}${inputs}: ${t.tail?.at(-1) ?? 'no log'}`;
  });
  return `the Slurm run failed: ${lines.join('; ')} — see ${view.loggingDir}/logs/`;
}
