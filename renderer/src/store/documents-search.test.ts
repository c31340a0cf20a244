import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentQuery } from '../../../shared/contract/index.js';
import { ApiError } from '../api/errors.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { PAGE_SIZE, SEARCH_DEBOUNCE_MS } from './documents.js';

describe('documents search', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks once, SEARCH_DEBOUNCE_MS after the last keystroke, with the search combined with the other filters', async () => {
    const { store, fake } = harness();
    store.getState().setRecipeText('recipe');
    await settle();
    store.getState().setDocFilter({ fate: 'dropped', droppedBy: 1, source: 'web' });
    store.getState().setRangeFilter({ key: 'k', min: 2 });
    await settle();
    const before = fake.callsOf('documents.page').length;
    for (const text of ['c', 'co', 'coo', 'cookie ']) {
      store.getState().setSearchInput(text);
      vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS - 1);
    }
    await settle();
    expect(fake.callsOf('documents.page').length).toBe(before);
    expect(store.getState().documents.searchInput).toBe('cookie ');
    vi.advanceTimersByTime(1);
    await settle();
    const asked = fake.callsOf('documents.page').slice(before);
    expect(asked).toEqual([
      { offset: 0, limit: PAGE_SIZE, recipeText: 'recipe', fate: 'dropped', droppedBy: 1, source: 'web', ranges: [{ key: 'k', min: 2 }], search: 'cookie' } satisfies DocumentQuery,
    ]);
    // The box keeps what was typed; the filter (and the URL) has it too.
    expect(store.getState().documents).toMatchObject({ searchInput: null, filter: { search: 'cookie ' } });
  });

  it('clears: an empty box removes the search, and the clear button wins over a pending keystroke', async () => {
    const { store, fake } = harness();
    store.getState().setDocFilter({ search: 'lorem' });
    store.getState().setSearchInput('lorem ipsum');
    store.getState().setDocFilter({ search: undefined });
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS * 2);
    await settle();
    expect(store.getState().documents.filter).toEqual({ ranges: [] });
    expect(fake.callsOf('documents.page').at(-1)?.search).toBeUndefined();
    store.getState().setSearchInput('   ');
    vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS);
    await settle();
    expect(store.getState().documents.filter.search).toBeUndefined();
  });

  it('keeps the host’s error code, so the pane can tell a missing search table from other failures', async () => {
    const { store, fake } = harness();
    fake.handle('documents.page', (q) => {
      if (q.search) throw new ApiError({ code: 'NOT_FOUND', message: 'this index has no search table: rebuild it with `assay index`' });
      return { total: 0, offset: 0, rows: [] };
    });
    store.getState().setDocFilter({ search: 'x' });
    await settle();
    expect(store.getState().documents.error).toMatch(/no search table/);
    expect(store.getState().documents.errorPayload?.code).toBe('NOT_FOUND');
    store.getState().setDocFilter({ search: undefined });
    await settle();
    expect(store.getState().documents).toMatchObject({ error: null, errorPayload: null });
  });
});

describe('documents export', () => {
  it('exports the whole filtered table (no paging): ids only, or with the table’s columns', async () => {
    const { store, fake } = harness({
      handlers: { 'documents.export': ({ path }) => ({ path, rows: 42, bytes: 1234 }) },
    });
    store.getState().setRecipeText('recipe');
    await settle();
    const s = store.getState();
    s.setDocFilter({ fate: 'kept', search: 'cookie' });
    s.setColumns(['a__b', 'c__d']);
    s.setSort({ column: 'chars', desc: false });
    const res = await s.exportDocuments({ format: 'csv', path: 'exports/kept.csv', withColumns: true });
    expect(res).toEqual({ path: 'exports/kept.csv', rows: 42, bytes: 1234 });
    await s.exportDocuments({ format: 'jsonl', path: 'exports/ids.jsonl', withColumns: false });
    expect(fake.callsOf('documents.export')).toEqual([
      { query: { recipeText: 'recipe', fate: 'kept', search: 'cookie', sort: { column: 'chars', desc: false }, columns: ['a__b', 'c__d'] }, format: 'csv', path: 'exports/kept.csv' },
      { query: { recipeText: 'recipe', fate: 'kept', search: 'cookie', sort: { column: 'chars', desc: false } }, format: 'jsonl', path: 'exports/ids.jsonl' },
    ]);
    expect(store.getState().documents.export).toEqual({ running: false, result: { path: 'exports/ids.jsonl', rows: 42, bytes: 1234 }, error: null });
  });

  it('reports a refused path', async () => {
    const { store, fake } = harness();
    fake.handle('documents.export', () => {
      throw new ApiError({ code: 'OUTSIDE_WORKSPACE', message: '../x.csv is outside the workspace' });
    });
    expect(await store.getState().exportDocuments({ format: 'csv', path: '../x.csv', withColumns: false })).toBeNull();
    expect(store.getState().documents.export).toEqual({ running: false, result: null, error: '../x.csv is outside the workspace' });
  });
});
