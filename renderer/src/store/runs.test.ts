import { describe, expect, it } from 'vitest';
import type { JobInfo, JobStart } from '../../../shared/contract/index.js';
import { settle, type Handlers } from '../testing/fakeApi.js';
import { workspaceInfo } from '../testing/fixtures.js';
import { harness } from '../testing/harness.js';
import { configsFor, MAX_LOG_LINES, selectedConfig } from './runs.js';

const job = (jobId: string, over: Partial<JobInfo> = {}): JobInfo => ({ jobId, kind: 'mix', state: 'running', startedAt: '2026-12-02T10:00:00Z', outputs: [], ...over });

function setup(handlers: Handlers = {}) {
  const h = harness({
    handlers: {
      'jobs.start': (s: JobStart) => job('j1', { kind: s.kind, ...(s.configPath ? { config: s.configPath } : {}) }),
      'jobs.cancel': ({ jobId }) => job(jobId, { state: 'cancelled' }),
      'jobs.check': () => ({ ok: true }),
      ...handlers,
    },
  });
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
    const order = fake.calls.map((c) => c.method).filter((m) => m === 'jobs.check' || m === 'recipe.write' || m === 'jobs.start');
    expect(order).toEqual(['jobs.check', 'recipe.write', 'jobs.start']);
    expect(fake.callsOf('jobs.check')).toEqual([{ kind: 'mix', configText: 'edited: true\n' }]);
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

const BROKEN = 'streams:\n  - name: main\n    documents: ["documents/*.jsonl.gz]\n    output: {path: output/x}\n';

describe('runs slice: a broken recipe is refused before anything is saved (issue 11.2)', () => {
  it('refuses what the job check refuses: nothing written, nothing started, the error kept for the editor marker', async () => {
    const { store, fake, files } = setup({ 'jobs.check': () => ({ ok: false, error: { code: 'CONFIG', message: 'configText:3: (syntax): Missing closing "quote', line: 3, column: 17 } }) });
    await store.getState().openRecipe('configs/demo.yaml');
    const before = files.get('configs/demo.yaml');
    store.getState().setRecipeText(BROKEN);
    expect(await store.getState().runRecipe('mix')).toBeNull();
    expect(files.get('configs/demo.yaml')).toBe(before);
    expect(fake.callsOf('recipe.write')).toEqual([]);
    expect(fake.callsOf('jobs.start')).toEqual([]);
    const s = store.getState();
    expect(s.recipe).toMatchObject({ text: BROKEN, savedText: before });
    expect(s.runs.refused).toMatchObject({ text: BROKEN, line: 3, column: 17, code: 'CONFIG' });
    expect(s.runs.error).toMatch(/^not started, nothing saved: line 3: .*closing "quote/);
    expect(s.runs.starting).toBe(false);
    // The editor is asked to show the line.
    expect(s.ui.reveal?.line).toBe(3);
  });

  it('refuses an output path outside the workspace that the lint places, even if the job check passed', async () => {
    const { store, fake, files } = setup({
      'preview.lint': () => [{ severity: 'error', code: 'outside-workspace', line: 4, column: 21, endColumn: 32, message: "output path '../../elsewhere' is outside the workspace" }],
    });
    await store.getState().openRecipe('configs/demo.yaml');
    const before = files.get('configs/demo.yaml');
    store.getState().setRecipeText(BROKEN.replace('output/x', '../../elsewhere').replace('.gz]', '.gz"]'));
    expect(await store.getState().runRecipe('mix')).toBeNull();
    expect(files.get('configs/demo.yaml')).toBe(before);
    expect(fake.callsOf('jobs.start')).toEqual([]);
    expect(store.getState().runs.refused).toMatchObject({ code: 'outside-workspace', line: 4, column: 21, endColumn: 32 });
  });

  it('places a refusal that names only a field at that field in the text', async () => {
    const text = 'streams:\n  - name: main\n    documents: [documents/*.gz]\n    output:\n      path: ../out\n';
    const { store } = setup({ 'jobs.check': () => ({ ok: false, error: { code: 'FORBIDDEN', message: "streams[0].output.path: '../out' is outside the workspace", field: 'streams[0].output.path' } }) });
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText(text);
    await store.getState().runRecipe('mix');
    expect(store.getState().runs.refused).toMatchObject({ code: 'FORBIDDEN', line: 5, column: 13, endColumn: 19 });
  });

  it('refuses when the check cannot be asked, and runs a clean recipe without saving it again', async () => {
    const { store, fake } = setup({
      'jobs.check': () => {
        throw new Error('socket closed');
      },
    });
    await store.getState().openRecipe('configs/demo.yaml');
    expect(await store.getState().runRecipe('mix')).toBeNull();
    expect(store.getState().runs.error).toContain('socket closed');
    fake.handle('jobs.check', () => ({ ok: true }));
    expect(await store.getState().runRecipe('mix')).not.toBeNull();
    expect(store.getState().runs.refused).toBeNull();
    expect(fake.callsOf('recipe.write')).toEqual([]);
    expect(fake.callsOf('jobs.start')).toEqual([{ kind: 'mix', configPath: 'configs/demo.yaml' }]);
  });

  it('saves and runs the text it checked, even when typing goes on during the check', async () => {
    let release = (): void => undefined;
    const { store, files } = setup({ 'jobs.check': () => new Promise((done) => (release = () => done({ ok: true }))) });
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('checked: 1\n');
    const run = store.getState().runRecipe('mix');
    await settle();
    store.getState().setRecipeText('typed later: 1\n');
    release();
    await run;
    expect(files.get('configs/demo.yaml')).toBe('checked: 1\n');
    expect(store.getState().recipe).toMatchObject({ text: 'typed later: 1\n', savedText: 'checked: 1\n' });
  });
});

describe('runs slice: configs of each kind (issue 11.3)', () => {
  const info = workspaceInfo({
    recipes: ['recipes/demo.yaml'],
    configs: [
      { path: 'recipes/demo.yaml', kinds: ['mix', 'tag'] },
      { path: 'configs/tokens.yaml', kinds: ['tokens'] },
      { path: 'configs/dedupe.yaml', kinds: ['dedupe'] },
      { path: 'configs/minhash.yaml', kinds: ['minhash'] },
      { path: 'elsewhere/mix2.json', kinds: ['mix'] },
    ],
  });

  it('lists every config of the chosen kind, by kind and not by folder', () => {
    expect(configsFor(info, 'recipes/demo.yaml', 'tokens')).toEqual(['configs/tokens.yaml']);
    expect(configsFor(info, 'recipes/demo.yaml', 'mix')).toEqual(['recipes/demo.yaml', 'elsewhere/mix2.json']);
    expect(configsFor(info, 'recipes/demo.yaml', 'tag')).toEqual(['recipes/demo.yaml']);
    expect(configsFor(info, null, 'minhash')).toEqual(['configs/minhash.yaml']);
    expect(configsFor(info, 'recipes/demo.yaml', 'index')).toEqual([]);
    // A recipe saved under a new name that the workspace has not listed yet.
    expect(configsFor(info, 'recipes/new.yaml', 'mix')).toEqual(['recipes/new.yaml', 'recipes/demo.yaml', 'elsewhere/mix2.json']);
    expect(configsFor(info, 'recipes/new.yaml', 'dedupe')).toEqual(['configs/dedupe.yaml']);
  });

  it('starts the chosen kind with its config; the open recipe goes through the check', async () => {
    const { store, fake, files } = setup({ 'workspace.info': () => info });
    files.set('recipes/demo.yaml', 'streams: []\n');
    await store.getState().refreshWorkspace();
    await store.getState().openRecipe('recipes/demo.yaml');
    store.getState().setRunKind('tokens');
    expect(selectedConfig(store.getState())).toBe('configs/tokens.yaml');
    await store.getState().startSelected();
    expect(fake.callsOf('jobs.start').at(-1)).toEqual({ kind: 'tokens', configPath: 'configs/tokens.yaml' });
    store.getState().setRunKind('mix');
    expect(selectedConfig(store.getState())).toBe('recipes/demo.yaml');
    store.getState().setRunConfig('elsewhere/mix2.json');
    expect(selectedConfig(store.getState())).toBe('elsewhere/mix2.json');
    store.getState().setRunConfig(null);
    store.getState().setRunKind('tag');
    await store.getState().startSelected();
    expect(fake.callsOf('jobs.check')).toEqual([{ kind: 'tag', configText: 'streams: []\n' }]);
    expect(fake.callsOf('jobs.start').at(-1)).toEqual({ kind: 'tag', configPath: 'recipes/demo.yaml' });
    store.getState().setRunKind('index');
    await store.getState().startSelected();
    expect(fake.callsOf('jobs.start').at(-1)).toEqual({ kind: 'index' });
  });

  it('says so when the kind has no config yet', async () => {
    const { store, fake } = setup({ 'workspace.info': () => workspaceInfo({ configs: [] }) });
    await store.getState().refreshWorkspace();
    store.getState().setRunKind('minhash');
    expect(await store.getState().startSelected()).toBeNull();
    expect(store.getState().runs.error).toContain('no minhash config');
    expect(fake.callsOf('jobs.start')).toEqual([]);
  });
});
