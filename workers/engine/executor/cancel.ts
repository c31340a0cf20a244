// `assay jobs cancel` and the app's Cancel: record the cancel in run.json, then scancel the run's jobs.
import { AssayError } from '../errors.js';
import { cancelJobs, type queued } from './slurm.js';
import { readRun, taskKey, writeRun } from './state.js';
import { runStatus, submissionJobIds } from './status.js';

export interface CancelDeps {
  look?: typeof queued;
  scancel?: (ids: readonly string[]) => Promise<void>;
}

/**
 * Cancels the last submission (`last`, what one app job submitted) or every submission (`all`, the CLI) and returns
 * the job ids given to scancel. The record comes first, so whoever reads the status afterwards (the app's watch,
 * `jobs status`) sees each unfinished task of a cancelled submission as cancelled, unless it had failed already:
 * slurmstepd writes its CANCELLED line to a task's log only after the task was killed, sometimes after the job left
 * squeue, and never when the step's completion message is lost.
 */
export async function cancelRun(dir: string, which: 'last' | 'all', deps: CancelDeps = {}): Promise<string[]> {
  // squeue failing must not keep the jobs running: then no task counts as failed before the cancel.
  const status = await runStatus(dir, deps.look).catch(() => null);
  const run = status?.run ?? (await readRun(dir));
  if (run === null || run.submissions.length === 0) throw new AssayError('IO', 'nothing of this run was submitted', { file: dir });
  const failed = status === null ? [] : status.tasks.filter((t) => t.state === 'failed').map(taskKey);
  const subs = which === 'last' ? run.submissions.slice(-1) : run.submissions;
  const at = new Date().toISOString();
  for (const s of subs) s.cancelled ??= { at, failed };
  await writeRun(dir, run);
  const ids = subs.flatMap(submissionJobIds);
  await (deps.scancel ?? cancelJobs)(ids);
  return ids;
}
