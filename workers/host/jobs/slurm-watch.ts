// Follows a submitted Slurm run about once a second until nothing of it is queued: per-task states and tasks done as progress; cancel is scancel.
import type { SlurmRun } from '../../../shared/contract/index.js';
import { AssayError } from '../../engine/errors.js';
import type { RunStatus } from '../../engine/executor/status.js';
import type { StageProgress } from './meter.js';
import { failedNow, failureText, slurmView, submittedJobIds, tasksProgress } from './slurm-view.js';

/** Where the states come from: the engine's `jobs status` and `scancel` on a real cluster, a fake in tests. */
export interface SlurmSource {
  status(dir: string): Promise<RunStatus>;
  cancel(jobIds: readonly string[]): Promise<void>;
}

export interface WatchOptions {
  root: string;
  /** The run's logging dir (absolute). */
  dir: string;
  signal: AbortSignal;
  source: SlurmSource;
  onTasks: (view: SlurmRun) => void;
  onProgress: (p: StageProgress) => void;
  log: (line: string) => void;
  pollMs?: number;
}

const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((done) => {
    const t = setTimeout(finish, ms);
    function finish(): void {
      clearTimeout(t);
      signal.removeEventListener('abort', finish);
      done();
    }
    // A cancel acts at once, not at the next poll.
    signal.addEventListener('abort', finish, { once: true });
  });

/** Resolves with the finished run's view; throws CANCELLED once a cancelled run has left the queue, and the failed tasks when one failed. */
export async function watchSlurmRun(o: WatchOptions): Promise<SlurmRun> {
  // Set at cancel: the tasks that had failed before it (they stay failed; the rest read cancelled).
  let cancelled: Set<string> | undefined;
  let lastKey = '';
  for (;;) {
    if (o.signal.aborted && !cancelled) {
      const before = await o.source.status(o.dir);
      cancelled = failedNow(before);
      // Only what this job submitted: an earlier submission's tasks are finished or belong to another job.
      const ids = submittedJobIds(before);
      o.log(`cancelling: scancel ${ids.join(' ')} (finished tasks keep their outputs; the same run again submits only the rest)`);
      await o.source.cancel(ids).catch((e: unknown) => o.log(`scancel: ${(e as Error).message}`));
    }
    const view = slurmView(o.root, await o.source.status(o.dir), cancelled);
    const key = JSON.stringify(view);
    if (key !== lastKey) {
      lastKey = key;
      o.onTasks(view);
    }
    const { done, total } = tasksProgress(view);
    o.onProgress({ done, total, unit: 'tasks', etaSec: null });
    if (view.finished) {
      if (cancelled) throw new AssayError('CANCELLED', 'cancelled');
      if (view.failed) throw new AssayError('IO', failureText(view));
      return view;
    }
    await pause(o.pollMs ?? 1000, cancelled ? new AbortController().signal : o.signal);
  }
}
