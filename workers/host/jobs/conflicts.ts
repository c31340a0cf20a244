// Two running jobs never write the same place: a job whose outputs overlap a running job's is refused until that one ends.
import { dirname, relative } from 'node:path';
import type { JobKind } from '../../../shared/contract/index.js';
import { HostError } from '../errors.js';
import type { PlannedWrite } from './plan-paths.js';

export interface RunningWrites {
  jobId: string;
  kind: JobKind;
  writes: readonly PlannedWrite[];
}

/** `path` and each folder above it, up to the filesystem root. */
function* selfAndAncestors(path: string): Generator<string> {
  for (let p = path; ; p = dirname(p)) {
    yield p;
    if (dirname(p) === p) return;
  }
}

/**
 * Throws when one of `mine` is, contains or lies inside a place a running job writes (a folder stands for
 * everything below it), naming the field, the place and the job. Linear in the paths: each is looked up with the
 * folders above it, both ways.
 */
export function refuseOverlap(root: string, mine: readonly PlannedWrite[], running: readonly RunningWrites[]): void {
  if (mine.length === 0) return;
  const theirs = new Map<string, RunningWrites>();
  for (const job of running) for (const w of job.writes) theirs.set(w.path, job);
  const refuse = (w: PlannedWrite, job: RunningWrites): never => {
    const shown = relative(root, w.path) || '.';
    throw new HostError('BAD_REQUEST', `${w.field}: '${shown}' is being written by job ${job.jobId} (${job.kind}); wait for it to finish or cancel it`, w.field);
  };
  for (const w of mine) {
    for (const p of selfAndAncestors(w.path)) {
      const job = theirs.get(p);
      if (job !== undefined) refuse(w, job);
    }
  }
  const ours = new Map(mine.map((w) => [w.path, w]));
  for (const [path, job] of theirs) {
    for (const p of selfAndAncestors(dirname(path))) {
      const w = ours.get(p);
      if (w !== undefined) refuse(w, job);
    }
  }
}
