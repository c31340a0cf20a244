// The Slurm job's watch loop against a scripted status source: per-task updates only on change, tasks as progress, failure text, cancel → scancel.
import { describe, expect, it } from 'vitest';
import type { SlurmRun } from '../../../shared/contract/index.js';
import type { RunStatus, TaskState, TaskStatus } from '../../engine/executor/status.js';
import { RUN_SCHEMA, type RunPlan } from '../../engine/executor/state.js';
import type { StageProgress } from './meter.js';
import { watchSlurmRun, type SlurmSource } from './slurm-watch.js';

const ROOT = '/ws';
const DIR = '/ws/.assay/slurm/mix-1';
const run: RunPlan = {
  schema: RUN_SCHEMA,
  version: 1,
  verb: 'mix',
  argv: ['mix', '--config', 'recipe.yaml'],
  cwd: ROOT,
  tasks: [{ inputs: ['/ws/documents/a.jsonl.gz'], argv: null }, { inputs: ['/ws/documents/b.jsonl.gz', '/ws/documents/c.jsonl.gz'], argv: null }],
  data: null,
  hasFinal: true,
  submissions: [{ jobId: '7', tasks: [0], finalJobId: '6', at: '' }, { jobId: '41', tasks: [0, 1], finalJobId: '42', at: '' }],
  created: '',
};

/** A RunStatus with these states for task 0, task 1 and the final step (tails given for the failed ones). */
function status(states: [TaskState, TaskState, TaskState], tails: Partial<Record<0 | 1 | 2, string[]>> = {}): RunStatus {
  const tasks: TaskStatus[] = states.map((state, i) => ({ task: i === 2 ? 'final' : i, state, inputs: i === 2 ? run.tasks.flatMap((t) => t.inputs) : run.tasks[i]!.inputs, tail: tails[i as 0 | 1 | 2] ?? [] }));
  const counts: Record<TaskState, number> = { done: 0, running: 0, pending: 0, failed: 0, cancelled: 0, 'not submitted': 0 };
  for (const t of tasks.slice(0, 2)) counts[t.state]++;
  const active = tasks.filter((t) => t.state === 'running' || t.state === 'pending').length;
  const failed = active === 0 && tasks.some((t) => t.state === 'failed' || t.state === 'cancelled');
  return { dir: DIR, run, tasks, counts, failed, finished: active === 0, lines: [] };
}

function scripted(steps: RunStatus[]): SlurmSource & { cancelled: string[]; polls: number } {
  const src = {
    cancelled: [] as string[],
    polls: 0,
    status: async (dir: string) => {
      expect(dir).toBe(DIR);
      return steps[Math.min(src.polls++, steps.length - 1)]!;
    },
    // The engine's cancelRun records the cancel and scancels the last submission (its own tests: executor/cancel.test.ts).
    cancel: async (dir: string) => {
      src.cancelled.push(dir);
      return ['41', '42'];
    },
  };
  return src;
}

function watch(source: SlurmSource, signal = new AbortController().signal) {
  const views: SlurmRun[] = [];
  const progress: StageProgress[] = [];
  const log: string[] = [];
  const done = watchSlurmRun({ root: ROOT, dir: DIR, signal, source, pollMs: 5, onTasks: (v) => views.push(v), onProgress: (p) => progress.push(p), log: (l) => log.push(l) });
  return { done, views, progress, log };
}

describe('watchSlurmRun', () => {
  it('reports each change of the tasks once, tasks done as progress, and ends when nothing is queued', async () => {
    const src = scripted([status(['pending', 'pending', 'pending']), status(['pending', 'pending', 'pending']), status(['running', 'pending', 'pending']), status(['done', 'running', 'pending']), status(['done', 'done', 'running']), status(['done', 'done', 'done'])]);
    const w = watch(src);
    const last = await w.done;
    expect(w.views.map((v) => v.tasks.map((t) => t.state).join(' '))).toEqual(['pending pending pending', 'running pending pending', 'done running pending', 'done done running', 'done done done']);
    expect(w.progress.map((p) => `${p.done}/${p.total} ${p.unit}`)).toEqual(['0/3 tasks', '0/3 tasks', '0/3 tasks', '1/3 tasks', '2/3 tasks', '3/3 tasks']);
    expect(last).toMatchObject({ loggingDir: '.assay/slurm/mix-1', jobIds: ['41', '42'], finished: true, failed: false });
    // Inputs and log tails travel only for tasks that failed.
    expect(last.tasks[1]).toEqual({ task: 1, state: 'done', inputCount: 2 });
  });

  it('fails naming the failed task, its inputs (workspace-relative) and its log tail', async () => {
    const src = scripted([status(['running', 'running', 'pending']), status(['done', 'failed', 'cancelled'], { 1: ['reading b', 'PARSE: documents/b.jsonl.gz:3: bad JSON'], 2: ['(no log: the task never started)'] })]);
    const w = watch(src);
    await expect(w.done).rejects.toThrow(/task 1 failed \(inputs: documents\/b\.jsonl\.gz, documents\/c\.jsonl\.gz\): PARSE: documents\/b\.jsonl\.gz:3: bad JSON/);
    const bad = w.views.at(-1)!.tasks[1]!;
    expect(bad).toEqual({ task: 1, state: 'failed', inputCount: 2, inputs: ['documents/b.jsonl.gz', 'documents/c.jsonl.gz'], tail: ['reading b', 'PARSE: documents/b.jsonl.gz:3: bad JSON'], log: '.assay/slurm/mix-1/logs/task-1.log' });
    expect(src.cancelled).toEqual([]);
  });

  it('on cancel asks the engine to cancel the run once, logs the job ids, waits for the queue to empty and ends CANCELLED', async () => {
    const ctl = new AbortController();
    const src = scripted([status(['running', 'pending', 'pending']), status(['running', 'pending', 'pending']), status(['running', 'pending', 'pending']), status(['cancelled', 'cancelled', 'cancelled'], { 0: ['tagging documents/a.jsonl.gz'], 1: ['(no log: the task never started)'], 2: ['(no log: the task never started)'] })]);
    const w = watch(src, ctl.signal);
    while (w.views.length === 0) await new Promise((r) => setTimeout(r, 1));
    ctl.abort();
    await expect(w.done).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(src.cancelled).toEqual([DIR]);
    expect(w.log.join('\n')).toMatch(/^cancelling: scancel 41 42 /m);
    const last = w.views.at(-1)!;
    expect(last.tasks.map((t) => t.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect(last.tasks[0]).toMatchObject({ tail: ['tagging documents/a.jsonl.gz'], log: '.assay/slurm/mix-1/logs/task-0.log' });
  });

  it('a scancel that fails is logged and the watch still ends', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const src = { ...scripted([status(['done', 'done', 'done'])]), cancel: async (): Promise<string[]> => Promise.reject(new Error('scancel: Invalid job id specified')) };
    const w = watch(src, ctl.signal);
    await expect(w.done).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(w.log.join('\n')).toMatch(/scancel: Invalid job id/);
  });
});
