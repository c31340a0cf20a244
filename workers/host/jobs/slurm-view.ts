// The engine's `jobs status` (RunStatus) as the contract's SlurmRun: paths workspace-relative, inputs and log tails only where a task failed.
import { isAbsolute, relative } from 'node:path';
import type { SlurmRun, SlurmTask } from '../../../shared/contract/index.js';
import { submissionJobIds, type RunStatus } from '../../engine/executor/status.js';
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
  return last ? submissionJobIds(last) : [];
}

export function slurmView(root: string, status: RunStatus): SlurmRun {
  const tasks: SlurmTask[] = status.tasks.map((t) => {
    const out: SlurmTask = { task: t.task, ...(t.stage ? { stage: t.stage } : {}), state: t.state, inputCount: t.inputs.length };
    if (t.state === 'failed' || t.state === 'cancelled') {
      out.inputs = t.inputs.slice(0, MAX_INPUTS).map((p) => relativeTo(root, p));
      out.tail = t.tail;
      out.log = relativeTo(root, logFile(status.dir, t.task, t.stage));
    }
    return out;
  });
  return { loggingDir: relativeTo(root, status.dir), jobIds: submittedJobIds(status), tasks, counts: status.counts, finished: status.finished, failed: status.failed };
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
