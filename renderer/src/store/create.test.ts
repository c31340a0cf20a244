import { describe, expect, it } from 'vitest';
import { decodeUrlState, encodeUrlState } from '../lib/urlState.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { initWorkbench, urlStateOf, wireEvents } from './create.js';

describe('store wiring', () => {
  it('restores a shared URL: recipe, filters, sort, columns and the selected document', async () => {
    const { store, fake } = harness({
      handlers: { 'documents.get': ({ id }) => ({ id, source: '', file: '', line: 1, text: 't', metadata: {}, spans: [], values: {} }), 'preview.explain': () => ({ id: 'd9', source: '', file: '', line: 1, stream: null, fate: 'outside', reason: 'outside', rules: [], text: 't', replaced: [] }) },
    });
    const url = decodeUrlState('recipe=configs/demo.yaml&doc=d9&fate=dropped&rule=0&sort=-chars&cols=a,b');
    await initWorkbench(store, url);
    await settle();
    const s = store.getState();
    expect(s.recipe.path).toBe('configs/demo.yaml');
    expect(s.inspector.id).toBe('d9');
    expect(fake.callsOf('documents.page').at(-1)).toMatchObject({ fate: 'dropped', droppedBy: 0, sort: { column: 'chars', desc: true }, columns: ['a', 'b'] });
    expect(encodeUrlState(urlStateOf(s))).toBe(encodeUrlState(url));
  });

  it('restores and re-shares the redacted filter and a preview bucket', async () => {
    for (const hash of ['recipe=configs%2Fdemo.yaml&fate=redacted&rule=2', 'recipe=configs%2Fdemo.yaml&bucket=alone%3A0&source=wiki']) {
      const { store, fake } = harness();
      const url = decodeUrlState(hash);
      await initWorkbench(store, url);
      await settle();
      const q = fake.callsOf('documents.page').at(-1);
      expect(q).toMatchObject(hash.includes('redacted') ? { redacted: true, redactedBy: 2 } : { bucket: { rule: 0, bucket: 'alone' }, source: 'wiki' });
      expect(q?.fate).toBeUndefined();
      expect(encodeUrlState(urlStateOf(store.getState()))).toBe(hash);
    }
    // Chosen in the app, shared, and opened elsewhere: the same filter.
    const { store } = harness();
    store.getState().showBucket(4, 'sequential', 'wiki');
    const shared = decodeUrlState(encodeUrlState(urlStateOf(store.getState())));
    expect(shared.filter).toEqual(store.getState().documents.filter);
  });

  it('opens the workspace first recipe when the URL names none', async () => {
    const { store } = harness();
    await initWorkbench(store, decodeUrlState(''));
    expect(store.getState().recipe.path).toBe('configs/demo.yaml');
  });

  it('routes host events into the store; index.updated refreshes workspace, histograms, preview and the open document', async () => {
    const { store, fake } = harness({
      handlers: {
        'attributes.histogram': ({ key }) => ({ key, present: 1, total: 1, min: 0, max: 1, edges: [0, 1], counts: [1] }),
        'documents.get': ({ id }) => ({ id, source: '', file: '', line: 1, text: 't', metadata: {}, spans: [], values: {} }),
      },
    });
    const off = wireEvents(store, fake.api);
    store.getState().setRecipeText('streams: []');
    store.getState().selectAttribute('k');
    await store.getState().selectDocument('d1');
    await settle();
    const previews = fake.callsOf('preview.run').length;
    fake.emit('job.progress', { jobId: 'j', done: 1, total: 2, unit: 'files', rate: 1 });
    expect(store.getState().runs.progress.j?.done).toBe(1);
    fake.emit('index.updated', { docs: 5 });
    await settle();
    expect(fake.callsOf('workspace.info')).toHaveLength(1);
    expect(fake.callsOf('attributes.histogram')).toHaveLength(2);
    expect(fake.callsOf('preview.run')).toHaveLength(previews + 1);
    expect(fake.callsOf('documents.get')).toEqual([{ id: 'd1' }, { id: 'd1' }]);
    off();
    fake.emit('job.log', { jobId: 'j', line: 'x' });
    expect(store.getState().runs.logs.j).toBeUndefined();
  });

  it('resyncs when a dropped connection comes back', async () => {
    const { store, fake } = harness();
    // The WebSocket client's sequence for a drop and two reconnect attempts.
    for (const s of ['closed', 'connecting', 'closed', 'connecting'] as const) store.getState().setConnectionStatus(s);
    expect(fake.callsOf('workspace.info')).toHaveLength(0);
    store.getState().setConnectionStatus('open');
    await settle();
    expect(store.getState().connection.reconnects).toBe(1);
    expect(fake.callsOf('workspace.info')).toHaveLength(1);
    expect(fake.callsOf('jobs.list')).toHaveLength(1);
  });
});
