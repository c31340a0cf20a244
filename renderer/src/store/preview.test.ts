import { describe, expect, it, vi } from 'vitest';
import type { PreviewResult } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { previewResult, rule } from '../testing/fixtures.js';
import { harness } from '../testing/harness.js';

/** A promise the test resolves by hand. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('preview slice', () => {
  it('stores the result with the text it was computed for, and lint issues', async () => {
    const { store } = harness({ handlers: { 'preview.lint': () => [{ severity: 'warning', code: 'drops-nothing', rule: 0, message: 'rule 0 drops nothing' }] } });
    store.getState().setRecipeText('v1');
    await settle();
    const p = store.getState().preview;
    expect(p.result?.rules[0]?.sequential.docs).toBe(40);
    expect(p.text).toBe('v1');
    expect(p.lint).toHaveLength(1);
    expect(p.running).toBe(false);
  });

  it('a sampled preview counts exact figures in a preview job, shows them when it ends on the same text, and an edit meanwhile wins', async () => {
    const { store, fake } = harness();
    const sampled = { ...previewResult([rule(0, 7)]), exact: false, sample: { docs: 10, of: 100, fraction: 0.1, seed: 0, level: 0.95 } };
    fake.handle('preview.run', () => sampled);
    // Nothing kept for a text until its job ended.
    const kept = new Map<string, PreviewResult>();
    fake.handle('preview.exact', (p) => kept.get(p.recipeText) ?? null);
    let n = 0;
    fake.handle('jobs.start', (s) => ({ jobId: `j${++n}`, kind: s.kind, state: 'running', startedAt: new Date().toISOString(), outputs: [] }));
    store.getState().setRecipeText('v1');
    await settle();
    expect(store.getState().preview.result?.sample?.of).toBe(100);
    await store.getState().runExactPreview();
    expect(fake.callsOf('jobs.start')).toEqual([{ kind: 'preview', configText: 'v1' }]);
    expect(store.getState().preview.exactRunning).toBe(true);
    expect(store.getState().runs.jobs.map((j) => j.jobId)).toEqual(['j1']);
    // A second click while it runs starts nothing.
    await store.getState().runExactPreview();
    expect(fake.callsOf('jobs.start')).toHaveLength(1);
    kept.set('v1', previewResult([rule(0, 9)]));
    store.getState().onJobState({ jobId: 'j1', kind: 'preview', state: 'done', startedAt: new Date().toISOString(), outputs: [] });
    await settle();
    expect(store.getState().preview.result?.exact).toBe(true);
    expect(store.getState().preview.result?.rules[0]?.sequential.docs).toBe(9);
    expect(store.getState().preview.exactRunning).toBe(false);
    // Asked again for the same text: the kept figures come at once, without a job.
    store.getState().setRecipeText('v1 ');
    store.getState().setRecipeText('v1');
    await settle();
    expect(store.getState().preview.result?.exact).toBe(false);
    await store.getState().runExactPreview();
    expect(fake.callsOf('jobs.start')).toHaveLength(1);
    expect(store.getState().preview.result?.rules[0]?.sequential.docs).toBe(9);
    // Exact figures of a job that ends after an edit do not replace the edit's preview.
    store.getState().setRecipeText('v2');
    await settle();
    await store.getState().runExactPreview();
    expect(fake.callsOf('jobs.start')).toHaveLength(2);
    fake.handle('preview.run', () => previewResult([rule(0, 3)]));
    store.getState().setRecipeText('v3');
    await store.getState().runPreview();
    kept.set('v2', previewResult([rule(0, 99)]));
    store.getState().onJobState({ jobId: 'j2', kind: 'preview', state: 'done', startedAt: new Date().toISOString(), outputs: [] });
    await settle();
    expect(store.getState().preview.text).toBe('v3');
    expect(store.getState().preview.result?.rules[0]?.sequential.docs).toBe(3);
    expect(store.getState().preview.exactRunning).toBe(false);
  });

  it('a failed exact-figures job keeps the sampled figures and frees the button', async () => {
    const { store, fake } = harness();
    fake.handle('preview.run', () => ({ ...previewResult([rule(0, 7)]), exact: false, sample: { docs: 10, of: 100, fraction: 0.1, seed: 0, level: 0.95 } }));
    fake.handle('preview.exact', () => null);
    fake.handle('jobs.start', (s) => ({ jobId: 'j1', kind: s.kind, state: 'running', startedAt: new Date().toISOString(), outputs: [] }));
    store.getState().setRecipeText('v1');
    await settle();
    await store.getState().runExactPreview();
    store.getState().onJobState({ jobId: 'j1', kind: 'preview', state: 'failed', startedAt: new Date().toISOString(), outputs: [], error: 'out of memory' });
    await settle();
    expect(store.getState().preview.exactRunning).toBe(false);
    expect(store.getState().preview.result?.exact).toBe(false);
    expect(fake.callsOf('preview.exact')).toHaveLength(1);
  });

  it('drops an answer that a newer run overtook', async () => {
    const first = deferred<PreviewResult>();
    const { store, fake } = harness();
    fake.handle('preview.run', ({ recipeText }) => (recipeText === 'old' ? first.promise : previewResult([rule(0, 7)])));
    store.getState().setRecipeText('old'); // starts a run that hangs until `first` resolves
    await settle();
    store.getState().setRecipeText('new');
    await store.getState().runPreview();
    expect(store.getState().preview.result?.rules[0]?.sequential.docs).toBe(7);
    first.resolve(previewResult([rule(0, 99)]));
    await settle();
    expect(store.getState().preview.text).toBe('new');
    expect(store.getState().preview.result?.rules[0]?.sequential.docs).toBe(7);
  });

  it('asks nothing while no recipe is open and the editor is empty, then previews what is typed', async () => {
    const { store, fake } = harness();
    await store.getState().runPreview();
    expect(fake.callsOf('preview.run')).toEqual([]);
    // No text previewed: the document table then asks without a recipe (an empty one would fail to parse).
    expect(store.getState().preview).toMatchObject({ result: null, text: null, error: null, running: false });
    store.getState().setRecipeText('streams: []');
    await settle();
    expect(fake.callsOf('preview.run')).toEqual([{ recipeText: 'streams: []' }]);
  });

  it('keeps the last good result and reports a located error for a broken recipe', async () => {
    const { store, fake } = harness();
    store.getState().setRecipeText('good');
    await settle();
    fake.handle('preview.run', () => {
      throw Object.assign(new Error('unknown key "strems"'), { code: 'CONFIG', line: 1, column: 1 });
    });
    store.getState().setRecipeText('strems: []');
    await settle();
    const p = store.getState().preview;
    expect(p.error).toEqual({ code: 'CONFIG', message: 'unknown key "strems"', line: 1, column: 1 });
    expect(p.text).toBe('good');
    expect(p.result).not.toBeNull();
  });

  it('asks again, silently, when another window’s newer preview superseded ours (CANCELLED)', async () => {
    const { store, fake } = harness();
    let calls = 0;
    fake.handle('preview.run', () => {
      if (++calls <= 2) throw Object.assign(new Error('superseded by a newer preview'), { code: 'CANCELLED' });
      return previewResult([rule(0, 11)]);
    });
    store.getState().setRecipeText('mine');
    await vi.waitFor(() => expect(store.getState().preview.result?.rules[0]?.sequential.docs).toBe(11), { timeout: 2000 });
    expect(calls).toBe(3);
    expect(store.getState().preview.error).toBeNull();
  });

  it('reports CANCELLED once retries are exhausted instead of asking forever', async () => {
    const { store, fake } = harness();
    fake.handle('preview.run', () => {
      throw Object.assign(new Error('superseded by a newer preview'), { code: 'CANCELLED' });
    });
    store.getState().setRecipeText('mine');
    await vi.waitFor(() => expect(store.getState().preview.error?.code).toBe('CANCELLED'), { timeout: 5000 });
    expect(fake.callsOf('preview.run').length).toBe(6);
  });

  it('refetches documents under the new text after each successful preview', async () => {
    const { store, fake } = harness();
    store.getState().ensureRows(0, 10);
    await settle();
    store.getState().setRecipeText('r1');
    await settle();
    expect(fake.callsOf('documents.page').at(-1)).toMatchObject({ offset: 0, recipeText: 'r1' });
  });

  it('toggles per-source rows of a rule', () => {
    const { store } = harness();
    store.getState().toggleRuleExpanded(2);
    expect(store.getState().preview.expanded).toEqual({ 2: true });
    store.getState().toggleRuleExpanded(2);
    expect(store.getState().preview.expanded).toEqual({});
  });
});
