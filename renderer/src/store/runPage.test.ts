import { describe, expect, it } from 'vitest';
import type { JobInfo, RunManifestView } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { ledgerQuery } from './runPage.js';

const job = (jobId: string, over: Partial<JobInfo> = {}): JobInfo => ({ jobId, kind: 'mix', state: 'done', startedAt: '2026-12-02T10:00:00Z', outputs: ['output/a', 'output/b'], ...over });

function view(path: string): RunManifestView {
  return {
    path: `${path}/.assay/manifest.json`,
    folder: path,
    sha256: 'f'.repeat(64),
    manifest: { stage: 'mix', folder: `/ws/${path}` } as RunManifestView['manifest'],
    chain: [{ path: `${path}/.assay/manifest.json`, folder: path, inside: true, stage: 'mix', depth: 0, status: 'same' }],
    ledger: true,
  };
}

describe('run page slice', () => {
  it('opens a finished run on its manifest, follows parent links and comes back', async () => {
    const { store, fake } = harness({ handlers: { 'jobs.list': () => [job('j1'), job('j2', { state: 'running', outputs: [] })], 'runs.manifest': ({ path }) => view(path) } });
    await store.getState().refreshJobs();
    store.getState().selectJob('j1');
    await settle();
    expect(store.getState().runPage).toMatchObject({ view: 'manifest', path: 'output/a', trail: [] });
    expect(store.getState().runPage.manifest?.folder).toBe('output/a');
    await store.getState().openRun('attributes/x/.assay/manifest.json', { follow: true });
    expect(store.getState().runPage).toMatchObject({ path: 'attributes/x/.assay/manifest.json', trail: ['output/a'] });
    store.getState().runBack();
    await settle();
    expect(store.getState().runPage).toMatchObject({ path: 'output/a', trail: [] });
    expect(fake.callsOf('runs.manifest').map((p) => p.path)).toEqual(['output/a', 'attributes/x/.assay/manifest.json', 'output/a']);
    // A running job shows its log.
    store.getState().selectJob('j2');
    expect(store.getState().runPage.view).toBe('log');
  });

  it('searches the shown run’s ledger with the chosen key, and shows a refusal', async () => {
    const { store, fake } = harness({
      handlers: {
        'runs.manifest': ({ path }) => view(path),
        'runs.locate': ({ query }) => {
          if ('contains' in query) throw Object.assign(new Error('query.contains: outside the workspace'), { code: 'FORBIDDEN' });
          return { ledgers: ['output/a/.assay/ledger.sqlite'], matches: [], truncated: false };
        },
      },
    });
    await store.getState().openRun('output/a');
    store.getState().setLedgerInput('id', '  doc-1 ');
    await store.getState().searchLedger();
    expect(fake.callsOf('runs.locate')).toEqual([{ path: 'output/a', query: { id: 'doc-1' }, limit: 100 }]);
    expect(store.getState().runPage.ledger.result?.ledgers).toHaveLength(1);
    store.getState().setLedgerInput('contains', ' x ');
    await store.getState().searchLedger();
    expect(store.getState().runPage.ledger).toMatchObject({ result: null, error: expect.stringMatching(/outside the workspace/) as string });
    expect(ledgerQuery('contains', ' x ')).toEqual({ contains: ' x ' });
    expect(ledgerQuery('textHash', '  ')).toBeNull();
  });
});
