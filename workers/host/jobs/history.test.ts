// The run history after a host crash: a Slurm job's record names its array and logging dir, and how to follow or stop it.
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/contract/index.js';
import { scratchDir } from '../../engine/testing.js';
import { RunHistory } from './history.js';

describe('RunHistory.reconcile', () => {
  it('ends orphaned jobs as failed; a Slurm job says its array may still run and how to follow or stop it', () => {
    const root = scratchDir();
    const h = new RunHistory(root);
    const base: Omit<JobInfo, 'jobId'> = { kind: 'mix', state: 'running', startedAt: '2026-12-04T10:00:00Z', outputs: [] };
    const slurm: JobInfo['slurm'] = { loggingDir: '.assay/slurm/mix-abc', jobIds: ['41', '42'], tasks: [], counts: { done: 0, running: 1, pending: 0, failed: 0, cancelled: 0, 'not submitted': 0 }, finished: false, failed: false };
    h.append({ ...base, jobId: 'local-1' });
    h.append({ ...base, jobId: 'slurm-1' });
    h.append({ ...base, jobId: 'slurm-1', slurm });
    const jobs = new RunHistory(root).reconcile('the engine host stopped');
    expect(jobs.find((j) => j.jobId === 'local-1')).toMatchObject({ state: 'failed', error: 'the engine host stopped' });
    const s = jobs.find((j) => j.jobId === 'slurm-1');
    expect(s).toMatchObject({ state: 'failed', slurm: { loggingDir: '.assay/slurm/mix-abc' } });
    expect(s?.error).toBe('the engine host stopped; its array (Slurm jobs 41, 42) may still be running: `assay jobs status .assay/slurm/mix-abc` in the workspace follows it, `assay jobs cancel .assay/slurm/mix-abc` stops it');
  });
});
