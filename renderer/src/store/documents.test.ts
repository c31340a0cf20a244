import { describe, expect, it } from 'vitest';
import type { DocumentPage, DocumentQuery } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { docRow } from '../testing/fixtures.js';
import { harness } from '../testing/harness.js';
import { MAX_PAGES, PAGE_SIZE, rowAt } from './documents.js';

describe('documents slice', () => {
  it('fetches only the pages a scrolled-to range needs, once each, over a million rows', async () => {
    const { store, fake } = harness({ docs: 1_000_000 });
    store.getState().ensureRows(0, 30);
    store.getState().ensureRows(0, 30);
    await settle();
    expect(store.getState().documents.total).toBe(1_000_000);
    store.getState().ensureRows(500_190, 500_230); // straddles two pages
    await settle();
    expect(fake.callsOf('documents.page').map((q) => q.offset)).toEqual([0, 500_000, 500_200]);
    expect(rowAt(store.getState().documents, 500_201)?.id).toBe('doc-500201');
    expect(rowAt(store.getState().documents, 700_000)).toBeUndefined();
  });

  it('keeps a bounded number of pages, evicting those far from the view', async () => {
    const { store } = harness({ docs: 1_000_000 });
    for (let p = 0; p < MAX_PAGES + 10; p++) {
      store.getState().ensureRows(p * PAGE_SIZE, p * PAGE_SIZE + 10);
      await settle();
    }
    const pages = Object.keys(store.getState().documents.pages).map(Number);
    expect(pages.length).toBe(MAX_PAGES);
    expect(pages).toContain(MAX_PAGES + 9);
    expect(pages).not.toContain(0);
  });

  it('sends filters, sort, columns and the previewed recipe text with each page request', async () => {
    const { store, fake } = harness();
    store.getState().setRecipeText('recipe');
    await settle();
    const s = store.getState();
    s.setDocFilter({ fate: 'dropped', droppedBy: 2, source: 'wiki' });
    s.setRangeFilter({ key: 'k', min: 1, max: 2 });
    s.setRangeFilter({ key: 'k', min: 3 });
    s.setSort({ column: 'chars', desc: true });
    s.setColumns(['k']);
    await settle();
    expect(fake.callsOf('documents.page').at(-1)).toEqual({
      offset: 0,
      limit: PAGE_SIZE,
      recipeText: 'recipe',
      fate: 'dropped',
      droppedBy: 2,
      source: 'wiki',
      ranges: [{ key: 'k', min: 3 }],
      sort: { column: 'chars', desc: true },
      columns: ['k'],
    } satisfies DocumentQuery);
    store.getState().setDocFilter({ fate: 'kept' });
    store.getState().clearRangeFilter('k');
    expect(store.getState().documents.filter).toEqual({ fate: 'kept', source: 'wiki', ranges: [] });
  });

  it('asks for redacted documents, optionally by one rule, and keeps the rule only with that fate', async () => {
    const { store, fake } = harness();
    store.getState().setRecipeText('recipe');
    await settle();
    store.getState().setDocFilter({ fate: 'redacted', redactedBy: 2 });
    await settle();
    expect(fake.callsOf('documents.page').at(-1)).toEqual({ offset: 0, limit: PAGE_SIZE, recipeText: 'recipe', redacted: true, redactedBy: 2 } satisfies DocumentQuery);
    store.getState().setDocFilter({ fate: 'redacted', redactedBy: undefined });
    await settle();
    expect(fake.callsOf('documents.page').at(-1)).toEqual({ offset: 0, limit: PAGE_SIZE, recipeText: 'recipe', redacted: true });
    store.getState().setDocFilter({ fate: 'redacted', redactedBy: 1 });
    store.getState().setDocFilter({ fate: 'kept' });
    expect(store.getState().documents.filter).toEqual({ fate: 'kept', ranges: [] });
  });

  it('lists one preview bucket: showBucket clears the other filters, a fate clears the bucket', async () => {
    const { store, fake } = harness();
    store.getState().setRecipeText('recipe');
    await settle();
    const s = store.getState();
    s.setDocFilter({ fate: 'dropped', droppedBy: 1, source: 'wiki' });
    s.setRangeFilter({ key: 'k', min: 1 });
    s.showBucket(3, 'exclusive');
    await settle();
    expect(store.getState().documents.filter).toEqual({ bucket: { rule: 3, bucket: 'exclusive' }, ranges: [] });
    expect(fake.callsOf('documents.page').at(-1)).toEqual({ offset: 0, limit: PAGE_SIZE, recipeText: 'recipe', bucket: { rule: 3, bucket: 'exclusive' } } satisfies DocumentQuery);
    // A per-source figure lists that source's part of the bucket.
    s.showBucket(3, 'alone', 'wiki');
    await settle();
    expect(fake.callsOf('documents.page').at(-1)).toMatchObject({ bucket: { rule: 3, bucket: 'alone' }, source: 'wiki' });
    // A range narrows the bucket; a fate replaces it.
    s.setRangeFilter({ key: 'k', max: 5 });
    expect(store.getState().documents.filter.bucket).toEqual({ rule: 3, bucket: 'alone' });
    s.setDocFilter({ fate: 'dropped', droppedBy: 3 });
    expect(store.getState().documents.filter).toEqual({ fate: 'dropped', droppedBy: 3, source: 'wiki', ranges: [{ key: 'k', max: 5 }] });
    s.showBucket(0, 'sequential');
    s.clearBucket();
    await settle();
    expect(store.getState().documents.filter).toEqual({ ranges: [] });
    expect(fake.callsOf('documents.page').at(-1)).toEqual({ offset: 0, limit: PAGE_SIZE, recipeText: 'recipe' });
  });

  it('drops pages answered for a query that has since changed', async () => {
    let release!: (p: DocumentPage) => void;
    const { store, fake } = harness();
    fake.handle('documents.page', (q) => (q.fate === undefined ? new Promise<DocumentPage>((r) => (release = r)) : { total: 3, offset: 0, rows: [docRow(7)] }));
    store.getState().ensureRows(0, 10);
    store.getState().setDocFilter({ fate: 'kept' });
    await settle();
    release({ total: 1000, offset: 0, rows: [docRow(1)] });
    await settle();
    expect(store.getState().documents.total).toBe(3);
    expect(rowAt(store.getState().documents, 0)?.id).toBe('doc-7');
  });

  it('reports a failed page and retries it on the next request', async () => {
    const { store, fake } = harness();
    fake.handle('documents.page', () => {
      throw new Error('index is being rebuilt');
    });
    store.getState().ensureRows(0, 5);
    await settle();
    expect(store.getState().documents.error).toBe('index is being rebuilt');
    fake.handle('documents.page', (q) => ({ total: 1, offset: q.offset, rows: [docRow(0)] }));
    store.getState().ensureRows(0, 5);
    await settle();
    expect(store.getState().documents.error).toBeNull();
    expect(rowAt(store.getState().documents, 0)?.id).toBe('doc-0');
  });
});
