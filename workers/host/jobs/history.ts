// The run history in `<workspace>/.assay/runs.jsonl`: one record per state change, the last one per job wins.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { JobInfo, SlurmRun } from '../../../shared/contract/index.js';

/** A history line: the job record plus the host process that ran it (to tell a crashed host's jobs from a live one's). */
type RunRecord = JobInfo & { hostPid?: number };

const KEEP = 200;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class RunHistory {
  readonly path: string;

  constructor(root: string) {
    this.path = join(root, '.assay', 'runs.jsonl');
  }

  append(job: JobInfo): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const { progress: _progress, ...rest } = job;
    appendFileSync(this.path, JSON.stringify({ ...rest, hostPid: process.pid } satisfies RunRecord) + '\n');
  }

  /** Jobs in start order, newest last; unreadable lines (a torn write) are skipped. */
  load(): JobInfo[] {
    return this.#records().map(({ hostPid: _pid, ...job }) => job);
  }

  #records(): RunRecord[] {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return [];
    }
    const jobs = new Map<string, RunRecord>();
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      try {
        const r = JSON.parse(line) as RunRecord;
        if (typeof r.jobId === 'string' && typeof r.state === 'string') jobs.set(r.jobId, { ...jobs.get(r.jobId), ...r });
      } catch {
        /* a line cut short by a crash */
      }
    }
    return [...jobs.values()].slice(-KEEP);
  }

  /**
   * Jobs recorded as running by a host process that no longer exists ended with it: record them as failed,
   * with the supervisor's reason when it gave one.
   */
  reconcile(reason: string): JobInfo[] {
    const orphans = this.#records().filter((j) => j.state === 'running' && !(j.hostPid !== undefined && j.hostPid !== process.pid && alive(j.hostPid)));
    const endedAt = new Date().toISOString();
    for (const j of orphans) {
      const { hostPid: _pid, ...job } = j;
      this.append({ ...job, state: 'failed', endedAt, error: job.slurm ? slurmOrphan(reason, job.slurm) : reason });
    }
    return this.load();
  }
}

/** A Slurm job's array outlives the host that followed it: say how to follow or stop it from a terminal. */
function slurmOrphan(reason: string, slurm: SlurmRun): string {
  const ids = slurm.jobIds.length ? ` (Slurm job${slurm.jobIds.length > 1 ? 's' : ''} ${slurm.jobIds.join(', ')})` : '';
  return `${reason}; its array${ids} may still be running: \`assay jobs status ${slurm.loggingDir}\` in the workspace follows it, \`assay jobs cancel ${slurm.loggingDir}\` stops it`;
}
