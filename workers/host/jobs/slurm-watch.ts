// Follows a submitted Slurm run about once a second until nothing of it is queued: per-task states and tasks done as progress; cancel is scancel.
import type { SlurmRun } from '../../../shared/contract/index.js';
import { AssayError } from '../../engine/errors.js';
import type { RunStatus } from '../../engine/executor/status.js';
import type { StageProgress } from './meter.js';
import { failureText, slurmView, tasksProgress } from './slurm-view.js';

/** Where the states come from: the engine's `jobs status` and its cancel (record, then scancel) on a real cluster, a fake in tests. */
export interface SlurmSource {
  status(dir: string): Promise<RunStatus>;
  /** Cancels what this job submitted (the run's last submission); the job ids given to scancel. */
  cancel(dir: string): Promise<string[]>;
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
  let cancelled = false;
  let lastKey = '';
  for (;;) {
    if (o.signal.aborted && !cancelled) {
      cancelled = true;
      // Only what this job submitted: an earlier submission's tasks are finished or belong to another job.
      await o.source.cancel(o.dir).then(
        (ids) => o.log(`cancelling: scancel ${ids.join(' ')} (finished tasks keep their outputs; the same run again submits only the rest)`),
        (e: unknown) => o.log(`scancel: ${(e as Error).message}`),
      );
    }
    const view = slurmView(o.root, await o.source.status(o.dir));
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
