// A cancelled run's status: killed tasks read cancelled whatever their logs say yet; tasks that had failed stay failed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { cancelRun } from './cancel.js';
import { logFile, readRun, RUN_SCHEMA, writeRun, type RunPlan } from './state.js';
import { runStatus } from './status.js';

const queue = (entries: Record<string, string>) => async (): Promise<Map<string, string>> => new Map(Object.entries(entries));

async function runDir(): Promise<string> {
  const dir = join(scratchDir(), 'run');
  const inputs = (n: string): string[] => [join(dir, `${n}.jsonl.gz`)];
  const run: RunPlan = {
    schema: RUN_SCHEMA,
    version: 1,
    verb: 'tag',
    argv: ['tag', '-c', 'tag.yaml'],
    cwd: dir,
    tasks: [{ inputs: inputs('a'), argv: null }, { inputs: inputs('b'), argv: null }],
    data: null,
    hasFinal: true,
    // An earlier submission of task 0, then the one the cancel is about.
    submissions: [{ jobId: '7', tasks: [0], finalJobId: '6', at: '' }, { jobId: '41', tasks: [0, 1], finalJobId: '42', at: '' }],
    created: '',
  };
  await writeRun(dir, run);
  mkdirSync(join(dir, 'logs'), { recursive: true });
  return dir;
}

describe('cancelRun', () => {
  it('records the cancel before scancel; a task killed before slurmstepd wrote CANCELLED reads cancelled, one that had failed stays failed', async () => {
    const dir = await runDir();
    // Task 1 failed on its own while task 0 ran.
    writeFileSync(logFile(dir, 1), 'PARSE: documents/b.jsonl.gz:3: bad JSON\n');
    const scancelled: string[][] = [];
    const ids = await cancelRun(dir, 'last', {
      look: queue({ '41_0': 'RUNNING', '42': 'PENDING' }),
      scancel: async (ids) => {
        // The record is on disk before scancel runs.
        expect((await readRun(dir))?.submissions[1]?.cancelled?.failed).toEqual([':1']);
        scancelled.push([...ids]);
      },
    });
    expect(ids).toEqual(['41', '42']);
    expect(scancelled).toEqual([['41', '42']]);
    const run = (await readRun(dir))!;
    expect(run.submissions[0]?.cancelled).toBeUndefined();
    expect(run.submissions[1]?.cancelled?.at).toMatch(/^\d{4}-\d\d-\d\dT/);

    // Killed: its log has its own lines but not (yet) slurmstepd's. While Slurm still lists it as COMPLETING (for
    // minutes when the step's completion message was lost) it is over all the same.
    writeFileSync(logFile(dir, 0), 'tagging documents/a.jsonl.gz\n');
    const completing = await runStatus(dir, queue({ '41_0': 'COMPLETING' }));
    expect(completing.tasks.map((t) => `${t.task}:${t.state}`)).toEqual(['0:cancelled', '1:failed', 'final:cancelled']);
    expect(completing.finished).toBe(true);
    expect(completing.tasks[0]?.tail).toEqual(['tagging documents/a.jsonl.gz']);
    const s = await runStatus(dir, queue({}));
    expect(s.tasks.map((t) => `${t.task}:${t.state}`)).toEqual(['0:cancelled', '1:failed', 'final:cancelled']);
    expect(s.counts).toMatchObject({ cancelled: 1, failed: 1 });
    expect(s.finished).toBe(true);
    expect(s.lines.join('\n')).toContain('task 0 cancelled');
    expect(s.lines.join('\n')).toContain('task 1 failed');

    // The same logs without the record: task 0 reads failed (what the app showed before).
    await writeRun(dir, { ...run, submissions: run.submissions.map(({ cancelled: _, ...rest }) => rest) });
    expect((await runStatus(dir, queue({}))).tasks.map((t) => t.state)).toEqual(['failed', 'failed', 'cancelled']);
    expect((await runStatus(dir, queue({ '41_0': 'COMPLETING' }))).tasks.map((t) => t.state)).toEqual(['running', 'failed', 'cancelled']);
  });

  it('`all` (the CLI) cancels and marks every submission; a later resubmission reads as it is', async () => {
    const dir = await runDir();
    const scancelled: string[][] = [];
    expect(await cancelRun(dir, 'all', { look: queue({ '41_0': 'PENDING', '41_1': 'PENDING', '42': 'PENDING' }), scancel: async (ids) => void scancelled.push([...ids]) })).toEqual(['7', '6', '41', '42']);
    const run = (await readRun(dir))!;
    expect(run.submissions.map((s) => s.cancelled?.failed)).toEqual([[], []]);
    // Never started: no log at all.
    expect((await runStatus(dir, queue({}))).tasks.map((t) => t.state)).toEqual(['cancelled', 'cancelled', 'cancelled']);

    // Resubmitted and failed this time: not a cancel.
    run.submissions.push({ jobId: '50', tasks: [0, 1], finalJobId: '51', at: '' });
    await writeRun(dir, run);
    writeFileSync(logFile(dir, 0), 'assay: error: out of memory\n');
    writeFileSync(logFile(dir, 1), 'assay: error: out of memory\n');
    expect((await runStatus(dir, queue({}))).tasks.map((t) => t.state)).toEqual(['failed', 'failed', 'cancelled']);
  });

  it('still scancels when squeue fails (no task then counts as failed before the cancel)', async () => {
    const dir = await runDir();
    const scancelled: string[][] = [];
    const broken = async (): Promise<Map<string, string>> => Promise.reject(new Error('squeue: Unable to contact slurm controller'));
    expect(await cancelRun(dir, 'last', { look: broken, scancel: async (ids) => void scancelled.push([...ids]) })).toEqual(['41', '42']);
    expect(scancelled).toEqual([['41', '42']]);
    expect((await readRun(dir))?.submissions[1]?.cancelled?.failed).toEqual([]);
  });

  it('refuses a run that was never submitted', async () => {
    const dir = await runDir();
    const run = (await readRun(dir))!;
    await writeRun(dir, { ...run, submissions: [] });
    await expect(cancelRun(dir, 'last', { look: queue({}), scancel: async () => undefined })).rejects.toThrow(/nothing of this run was submitted/);
  });
});
