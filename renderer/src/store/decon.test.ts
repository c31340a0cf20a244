import { describe, expect, it } from 'vitest';
import type { AttributeKeyInfo, DeconReport, DocumentDetail } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { workspaceInfo } from '../testing/fixtures.js';
import { harness } from '../testing/harness.js';

const key = (set: string, k: string): AttributeKeyInfo => ({ key: k, set, kind: 'document', docs: 3, spans: 3, min: 0, max: 5, quantiles: [] });

const report = (name: string): DeconReport & { written: string[] } => ({
  schema: 'assay.decon-report', version: 1, name, attributeSet: name, created: '2026-01-01T00:00:00Z', files: ['documents/a.jsonl'], docs: 4, contaminated: 1, ngrams: 3,
  sources: [], sets: [], itemsFile: null, notes: [], written: [],
});

const detail = (over: Partial<DocumentDetail>): DocumentDetail => ({ id: 'd1', source: 'web', file: 'documents/a.jsonl', line: 1, text: 'x'.repeat(50), metadata: {}, spans: [], values: {}, ...over });

describe('decon slice', () => {
  it('opening the tab asks the report of the first decon set in the catalogue once; refresh and save ask again', async () => {
    const info = workspaceInfo();
    const { store, fake } = harness({
      handlers: {
        'workspace.info': () => ({ ...info, attributes: [...info.attributes, key('evals', 'evals__decon__ngrams'), key('evals', 'evals__decon__overlap'), key('b', 'other__decon__items')] }),
        'decon.report': (p) => report(p.name),
      },
    });
    await store.getState().refreshWorkspace();
    expect(store.getState().deconTargets()).toEqual([{ name: 'other', set: 'b' }, { name: 'evals', set: 'evals' }]);
    store.getState().setBottomTab('decon');
    await settle();
    expect(fake.callsOf('decon.report')).toEqual([{ name: 'other', set: 'b' }]);
    expect(store.getState().decon.report?.name).toBe('other');
    store.getState().setBottomTab('runs');
    store.getState().setBottomTab('decon');
    await settle();
    expect(fake.callsOf('decon.report')).toHaveLength(1);
    await store.getState().loadDeconReport({ name: 'evals', set: 'evals' }, true);
    expect(fake.callsOf('decon.report').at(-1)).toEqual({ name: 'evals', write: true });
    expect(store.getState().decon).toMatchObject({ target: { name: 'evals', set: 'evals' }, loading: false, error: null });
  });

  it('says so when the workspace has no decon attributes, and keeps the host error of a failed report', async () => {
    const { store, fake } = harness({ handlers: { 'decon.report': () => Promise.reject(Object.assign(new Error('no indexed documents file has decon attributes'), { code: 'NOT_FOUND' })) } });
    await store.getState().refreshWorkspace();
    await store.getState().loadDeconReport();
    expect(store.getState().decon.error).toMatch(/no decon attributes in this workspace/);
    expect(fake.callsOf('decon.report')).toEqual([]);
    await store.getState().loadDeconReport({ name: 'x', set: 'x' });
    expect(store.getState().decon).toMatchObject({ loading: false, report: null });
    expect(store.getState().decon.error).toMatch(/no indexed documents file has decon attributes/);
  });

  it('a selected document with decon spans brings the texts of the eval items it hits; one without asks nothing', async () => {
    const withHits = detail({ spans: [{ set: 'evals', key: 'evals__decon__overlap', start: 3, end: 20, score: 1 }], values: { evals__decon__hits: ['mmlu:q1', 'gsm:7'] } });
    const docs: Record<string, DocumentDetail> = { d1: withHits, d2: detail({ id: 'd2', values: { evals__decon__hits: [] } }) };
    const { store, fake } = harness({
      handlers: {
        'documents.get': (p) => docs[p.id]!,
        'decon.items': (p) => p.refs.map((ref) => ({ ref, set: ref.split(':')[0]!, id: ref.split(':')[1]!, text: `text of ${ref}` })),
      },
    });
    await store.getState().selectDocument('d1');
    await settle();
    expect(fake.callsOf('decon.items')).toEqual([{ file: 'documents/a.jsonl', set: 'evals', refs: ['mmlu:q1', 'gsm:7'] }]);
    expect(store.getState().decon.docId).toBe('d1');
    expect(store.getState().decon.items[0]!.items.map((i) => i.text)).toEqual(['text of mmlu:q1', 'text of gsm:7']);
    await store.getState().selectDocument('d2');
    await settle();
    expect(fake.callsOf('decon.items')).toHaveLength(1);
    expect(store.getState().decon).toMatchObject({ docId: 'd2', items: [] });
  });
});
