// Documents slice: the table's filters, search, sort and columns, the pages fetched as it scrolls, and its export.
import type { DocumentQuery, DocumentRow, ErrorPayload, ExportResult, SampleBucket } from '../../../shared/contract/index.js';
import { errorText, toErrorPayload } from '../api/errors.js';
import { pagesFor, pagesToEvict } from '../lib/paging.js';
import type { DocFilter, RangeFilter, SortState } from '../lib/urlState.js';
import { patcher, type SliceCreator } from './types.js';

export const PAGE_SIZE = 200;
/** Pages kept in memory (×PAGE_SIZE rows); scrolling far away refetches. */
export const MAX_PAGES = 40;
/** Typing in the search box asks the host this long after the last keystroke. */
export const SEARCH_DEBOUNCE_MS = 300;

export type ExportFormat = 'csv' | 'jsonl';

export interface ExportState {
  running: boolean;
  /** What the last export wrote. */
  result: ExportResult | null;
  error: string | null;
}

export interface DocumentsState {
  filter: DocFilter;
  sort: SortState | null;
  /** Attribute keys shown as extra columns. */
  columns: string[];
  /** Rows matching the filters; null until the first page answers. */
  total: number | null;
  pages: Record<number, DocumentRow[]>;
  loading: Record<number, boolean>;
  error: string | null;
  /** The last failed page's error (its code tells a missing search table from other failures). */
  errorPayload: ErrorPayload | null;
  /** Bumped whenever the query changes; answers for older versions are dropped. */
  version: number;
  /** The search box while the user types (not yet asked); null when it shows `filter.search`. */
  searchInput: string | null;
  export: ExportState;
}

export interface DocumentsSlice {
  documents: DocumentsState;
  /** Merges `p` into the filter; a bucket and a fate exclude each other, so setting one clears the other. */
  setDocFilter(p: Partial<DocFilter>): void;
  /** Lists exactly one preview bucket of a rule (of one source, when given): other filters are cleared. */
  showBucket(rule: number, bucket: SampleBucket, source?: string): void;
  clearBucket(): void;
  /** Adds or replaces the range filter on `range.key`. */
  setRangeFilter(range: RangeFilter): void;
  clearRangeFilter(key: string): void;
  setSort(sort: SortState | null): void;
  setColumns(columns: string[]): void;
  /** The search box changed: the filter follows SEARCH_DEBOUNCE_MS after the last change. */
  setSearchInput(text: string): void;
  /**
   * Writes every row matching the current filters and search (not just the loaded pages) to `path` in the
   * workspace: ids only, or ids with the table's attribute columns.
   */
  exportDocuments(opts: { format: ExportFormat; path: string; withColumns: boolean }): Promise<ExportResult | null>;
  /** Make sure rows [first, last] are loaded (or loading). */
  ensureRows(first: number, last: number): void;
  /** The recipe's preview or the index changed: refetch the rows in view. */
  invalidateDocuments(): void;
}

export const createDocumentsSlice: SliceCreator<DocumentsSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'documents');
  let lastRange: [number, number] = [0, 50];

  let searchTimer: ReturnType<typeof setTimeout> | undefined;

  /** The table's query without paging: what a page asks for and what an export writes. */
  const baseQuery = (): Omit<DocumentQuery, 'offset' | 'limit'> => {
    const { filter, sort, columns } = get().documents;
    const q: Omit<DocumentQuery, 'offset' | 'limit'> = {};
    const recipeText = get().preview.text;
    if (recipeText !== null) q.recipeText = recipeText;
    if (filter.fate === 'redacted') {
      q.redacted = true;
      if (filter.redactedBy !== undefined) q.redactedBy = filter.redactedBy;
    } else if (filter.fate) q.fate = filter.fate;
    if (filter.droppedBy !== undefined) q.droppedBy = filter.droppedBy;
    if (filter.bucket) q.bucket = filter.bucket;
    if (filter.source !== undefined) q.source = filter.source;
    if (filter.ranges.length > 0) q.ranges = filter.ranges;
    const search = filter.search?.trim();
    if (search) q.search = search;
    // Comparing: rows carry old → new, and the change filters keep only changed documents.
    const baseline = get().compare.target !== null ? get().compare.result?.baseline.text : undefined;
    if (baseline !== undefined && recipeText !== null) {
      q.compare = { oldText: baseline, ...(filter.change !== undefined && { change: filter.change }), ...(filter.group !== undefined && { group: filter.group }) };
    }
    if (sort) q.sort = sort;
    if (columns.length > 0) q.columns = columns;
    return q;
  };
  const query = (page: number): DocumentQuery => ({ offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...baseQuery() });

  const fetchPage = async (page: number, version: number): Promise<void> => {
    patch({ loading: { ...get().documents.loading, [page]: true } });
    try {
      const res = await api.invoke('documents.page', query(page));
      const d = get().documents;
      if (d.version !== version) return;
      const pages = { ...d.pages, [page]: res.rows };
      const inView = pagesFor(lastRange[0], lastRange[1], PAGE_SIZE, res.total);
      for (const p of pagesToEvict(Object.keys(pages).map(Number), inView, MAX_PAGES)) delete pages[p];
      const loading = { ...d.loading };
      delete loading[page];
      patch({ pages, loading, total: res.total, error: null, errorPayload: null });
    } catch (e) {
      const d = get().documents;
      if (d.version !== version) return;
      const loading = { ...d.loading };
      delete loading[page];
      patch({ loading, error: errorText(e), errorPayload: toErrorPayload(e) });
    }
  };

  /** A new query: forget rows and (when the matching set changes) the total, then reload the view. */
  const requery = (p: Partial<DocumentsState>, keepTotal: boolean): void => {
    const d = get().documents;
    patch({ ...p, pages: {}, loading: {}, version: d.version + 1, total: keepTotal ? d.total : null, error: null, errorPayload: null });
    if (!keepTotal) lastRange = [0, lastRange[1] - lastRange[0]];
    get().ensureRows(lastRange[0], lastRange[1]);
  };

  return {
    documents: {
      filter: { ranges: [] },
      sort: null,
      columns: [],
      total: null,
      pages: {},
      loading: {},
      error: null,
      errorPayload: null,
      version: 0,
      searchInput: null,
      export: { running: false, result: null, error: null },
    },

    setDocFilter(p) {
      const before = get().documents.filter.search;
      const filter = { ...get().documents.filter, ...p };
      if ('search' in p) {
        // A search set from outside the box (URL, clear button) wins over a pending keystroke.
        clearTimeout(searchTimer);
        if (filter.search !== undefined && filter.search.trim() === '') delete filter.search;
      }
      // Both pick documents by what the recipe does to them; intersecting them would hide the figure clicked.
      if (p.bucket !== undefined) {
        delete filter.fate;
        delete filter.droppedBy;
        delete filter.redactedBy;
      } else if ('fate' in p || 'droppedBy' in p || 'redactedBy' in p) delete filter.bucket;
      // A group is one kind of change, narrowed: setting one clears the other.
      if (p.group !== undefined) delete filter.change;
      else if (p.change !== undefined) delete filter.group;
      if (filter.fate !== 'dropped') delete filter.droppedBy;
      if (filter.fate !== 'redacted') delete filter.redactedBy;
      for (const k of Object.keys(filter) as (keyof DocFilter)[]) if (filter[k] === undefined) delete filter[k];
      requery({ filter, ...('search' in p ? { searchInput: null } : {}) }, false);
      // The inspector highlights the search's matches: ask for the open document again under the new search.
      const id = get().inspector.id;
      if (filter.search !== before && id !== null) void get().selectDocument(id);
    },
    setSearchInput(text) {
      patch({ searchInput: text });
      clearTimeout(searchTimer);
      searchTimer = setTimeout(() => {
        if (get().documents.searchInput === text) get().setDocFilter({ search: text });
      }, SEARCH_DEBOUNCE_MS);
    },
    async exportDocuments({ format, path, withColumns }) {
      const q = baseQuery();
      if (!withColumns) delete q.columns;
      patch({ export: { running: true, result: null, error: null } });
      try {
        const result = await api.invoke('documents.export', { query: q, format, path });
        patch({ export: { running: false, result, error: null } });
        return result;
      } catch (e) {
        patch({ export: { running: false, result: null, error: errorText(e) } });
        return null;
      }
    },
    setRangeFilter(range) {
      const f = get().documents.filter;
      requery({ filter: { ...f, ranges: [...f.ranges.filter((r) => r.key !== range.key), range] } }, false);
    },
    showBucket(rule, bucket, source) {
      get().setDocFilter({ bucket: { rule, bucket }, source, ranges: [] });
    },
    clearBucket() {
      const filter = { ...get().documents.filter };
      delete filter.bucket;
      requery({ filter }, false);
    },
    clearRangeFilter(key) {
      const f = get().documents.filter;
      requery({ filter: { ...f, ranges: f.ranges.filter((r) => r.key !== key) } }, false);
    },
    setSort: (sort) => requery({ sort }, true),
    setColumns: (columns) => requery({ columns }, true),

    ensureRows(first, last) {
      lastRange = [Math.max(0, first), Math.max(first, last)];
      const d = get().documents;
      for (const p of pagesFor(lastRange[0], lastRange[1], PAGE_SIZE, d.total)) {
        if (d.pages[p] === undefined && !d.loading[p]) void fetchPage(p, d.version);
      }
    },

    // Fates can change with the recipe, so rows are refetched; the total is kept so the scroll position holds.
    invalidateDocuments: () => requery({}, true),
  };
};

/** The row at `index`, when its page is loaded. */
export function rowAt(d: Pick<DocumentsState, 'pages'>, index: number): DocumentRow | undefined {
  return d.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
}
