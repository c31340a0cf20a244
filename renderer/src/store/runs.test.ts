import { describe, expect, it } from 'vitest';
import type { JobInfo, JobStart } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { MAX_LOG_LINES } from './runs.js';

const job = (jobId: string, over: Partial<JobInfo> = {}): JobInfo => ({ jobId, kind: 'mix', state: 'running', startedAt: '2026-12-02T10:00:00Z', outputs: [], ...over });

function setup() {
  const h = harness({ handlers: { 'jobs.start': (s: JobStart) => job('j1', { kind: s.kind, ...(s.configPath ? { config: s.configPath } : {}) }), 'jobs.cancel': ({ jobId }) => job(jobId, { state: 'cancelled' }) } });
  return h;
}

describe('runs slice', () => {
  it('saves unsaved edits before running the recipe, so the run reads what the preview showed', async () => {
    const { store, fake, files } = setup();
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('edited: true\n');
    const info = await store.getState().runRecipe('mix');
    expect(files.get('configs/demo.yaml')).toBe('edited: true\n');
    expect(fake.callsOf('jobs.start')).toEqual([{ kind: 'mix', configPath: 'configs/demo.yaml' }]);
    const order = fake.calls.map((c) => c.method).filter((m) => m === 'recipe.write' || m === 'jobs.start');
    expect(order).toEqual(['recipe.write', 'jobs.start']);
    expect(store.getState().runs).toMatchObject({ latest: info?.jobId, selected: info?.jobId, starting: false });
  });

  it('does not start when the save fails', async () => {
    const { store, fake } = setup();
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('x');
    fake.handle('recipe.write', () => {
      throw new Error('disk full');
    });
    expect(await store.getState().runRecipe('mix')).toBeNull();
    expect(fake.callsOf('jobs.start')).toEqual([]);
    expect(store.getState().runs.error).toContain('disk full');
  });

  it('follows progress, log and state events; a finished job refreshes the workspace', async () => {
    const { store, fake } = setup();
    await store.getState().startJob({ kind: 'tag', configPath: 'configs/tag.yaml' });
    const s = store.getState();
    s.onJobProgress({ jobId: 'j1', done: 5, total: 10, unit: 'files', rate: 2.5, eta: 2 });
    s.onJobLog({ jobId: 'j1', line: 'tagged a.jsonl.gz' });
    expect(store.getState().runs.progress.j1?.done).toBe(5);
    expect(store.getState().runs.logs.j1).toEqual(['tagged a.jsonl.gz']);
    const before = fake.callsOf('workspace.info').length;
    s.onJobState(job('j1', { kind: 'tag', state: 'done', summary: 'tagged 10 files', outputs: ['attributes/x'] }));
    s.onJobState(job('j1', { kind: 'tag', state: 'done', summary: 'tagged 10 files', outputs: ['attributes/x'] }));
    await settle();
    expect(store.getState().runs.jobs).toHaveLength(1);
    expect(store.getState().runs.jobs[0]).toMatchObject({ state: 'done', summary: 'tagged 10 files' });
    expect(fake.callsOf('workspace.info').length).toBe(before + 1);
  });

  it('cancels, lists the history newest first and caps logs', async () => {
    const { store, fake } = setup();
    fake.handle('jobs.list', () => [job('old', { startedAt: '2026-12-01T00:00:00Z', state: 'done' }), job('new', { startedAt: '2026-12-02T00:00:00Z' })]);
    await store.getState().refreshJobs();
    expect(store.getState().runs.jobs.map((j) => j.jobId)).toEqual(['new', 'old']);
    await store.getState().cancelJob('new');
    expect(store.getState().runs.jobs.find((j) => j.jobId === 'new')?.state).toBe('cancelled');
    for (let i = 0; i < MAX_LOG_LINES + 3; i++) store.getState().onJobLog({ jobId: 'new', line: String(i) });
    const log = store.getState().runs.logs.new ?? [];
    expect(log).toHaveLength(MAX_LOG_LINES);
    expect(log.at(-1)).toBe(String(MAX_LOG_LINES + 2));
  });
});
