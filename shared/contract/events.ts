// Events the host pushes to the app: job lifecycle and index refreshes.
import type { JobInfo, JobLog, JobProgress, JobTasks } from './jobs.js';

export interface Events {
  'job.progress': JobProgress;
  /** Any state change (started, done, failed, cancelled), with the whole job record. */
  'job.state': JobInfo;
  'job.log': JobLog;
  /** A Slurm job's per-task states changed. */
  'job.tasks': JobTasks;
  /** The index changed (a tag/dedupe/index job finished): cached previews and pages are stale. */
  'index.updated': { docs: number };
  /** A watched workspace file (see `recipe.watch`) changed or disappeared on disk. */
  'file.changed': { path: string; exists: boolean };
}

export type EventName = keyof Events;
