// A run with a later array stage (MinHash's buckets) as the app shows it: stage tasks named, their logs, their jobs cancelled too.
import { describe, expect, it } from 'vitest';
import type { RunStatus, TaskStatus } from '../../engine/executor/status.js';
import { RUN_SCHEMA, type RunPlan } from '../../engine/executor/state.js';
import { failureText, slurmView, submittedJobIds } from './slurm-view.js';

const run: RunPlan = {
  schema: RUN_SCHEMA,
  version: 1,
  verb: 'minhash',
  argv: ['minhash', '--config', 'minhash.yaml'],
  cwd: '/ws',
  tasks: [{ inputs: ['/ws/documents/a.jsonl.gz'], argv: null }],
  stages: [{ name: 'buckets', tasks: [{ inputs: ['/ws/documents/a.jsonl.gz'], argv: null }, { inputs: ['/ws/documents/a.jsonl.gz'], argv: null }] }],
  data: null,
  hasFinal: true,
  submissions: [{ jobId: '50', tasks: [0], stageJobs: [{ name: 'buckets', jobId: '51', tasks: [0, 1] }], finalJobId: '52', at: '' }],
  created: '',
};

describe('slurmView with array stages', () => {
  it('names stage tasks, points at their own logs and lists their job among the ones to cancel', () => {
    const tasks: TaskStatus[] = [
      { task: 0, state: 'done', inputs: run.tasks[0]!.inputs, tail: [] },
      { task: 0, stage: 'buckets', state: 'done', inputs: run.tasks[0]!.inputs, tail: [] },
      { task: 1, stage: 'buckets', state: 'failed', inputs: run.tasks[0]!.inputs, tail: ['assay: error: out of memory'] },
      { task: 'final', state: 'cancelled', inputs: run.tasks[0]!.inputs, tail: ['(no log: the task never started)'] },
    ];
    const status: RunStatus = { dir: '/ws/.assay/slurm/mh', run, tasks, counts: { done: 1, running: 0, pending: 0, failed: 0, cancelled: 0, 'not submitted': 0 }, failed: true, finished: true, lines: [] };
    expect(submittedJobIds(status)).toEqual(['50', '51', '52']);
    const view = slurmView('/ws', status);
    expect(view.tasks.map((t) => [t.stage ?? '', t.task, t.state])).toEqual([['', 0, 'done'], ['buckets', 0, 'done'], ['buckets', 1, 'failed'], ['', 'final', 'cancelled']]);
    expect(view.tasks[2]).toMatchObject({ log: '.assay/slurm/mh/logs/buckets-task-1.log', inputs: ['documents/a.jsonl.gz'] });
    expect(failureText(view)).toContain('buckets task 1 failed (inputs: documents/a.jsonl.gz): assay: error: out of memory');
  });
});
