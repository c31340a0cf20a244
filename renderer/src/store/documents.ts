// Documents slice: the table's filters, sort and columns, and the pages fetched on demand as it scrolls.
import type { DocumentQuery, DocumentRow, SampleBucket } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { pagesFor, pagesToEvict } from '../lib/paging.js';
import type { DocFilter, RangeFilter, SortState } from '../lib/urlState.js';
import { patcher, type SliceCreator } from './types.js';

export const PAGE_SIZE = 200;
/** Pages kept in memory (×PAGE_SIZE rows); scrolling far away refetches. */
export const MAX_PAGES = 40;

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
  /** Bumped whenever the query changes; answers for older versions are dropped. */
  version: number;
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
  /** Make sure rows [first, last] are loaded (or loading). */
  ensureRows(first: number, last: number): void;
  /** The recipe's preview or the index changed: refetch the rows in view. */
  invalidateDocuments(): void;
}

export const createDocumentsSlice: SliceCreator<DocumentsSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'documents');
  let lastRange: [number, number] = [0, 50];

  const query = (page: number): DocumentQuery => {
    const { filter, sort, columns } = get().documents;
    const q: DocumentQuery = { offset: page * PAGE_SIZE, limit: PAGE_SIZE };
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
    if (sort) q.sort = sort;
    if (columns.length > 0) q.columns = columns;
    return q;
  };

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
      patch({ pages, loading, total: res.total, error: null });
    } catch (e) {
      const d = get().documents;
      if (d.version !== version) return;
      const loading = { ...d.loading };
      delete loading[page];
      patch({ loading, error: errorText(e) });
    }
  };

  /** A new query: forget rows and (when the matching set changes) the total, then reload the view. */
  const requery = (p: Partial<DocumentsState>, keepTotal: boolean): void => {
    const d = get().documents;
    patch({ ...p, pages: {}, loading: {}, version: d.version + 1, total: keepTotal ? d.total : null, error: null });
    if (!keepTotal) lastRange = [0, lastRange[1] - lastRange[0]];
    get().ensureRows(lastRange[0], lastRange[1]);
  };

  return {
    documents: { filter: { ranges: [] }, sort: null, columns: [], total: null, pages: {}, loading: {}, error: null, version: 0 },

    setDocFilter(p) {
      const filter = { ...get().documents.filter, ...p };
      // Both pick documents by what the recipe does to them; intersecting them would hide the figure clicked.
      if (p.bucket !== undefined) {
        delete filter.fate;
        delete filter.droppedBy;
        delete filter.redactedBy;
      } else if ('fate' in p || 'droppedBy' in p || 'redactedBy' in p) delete filter.bucket;
      if (filter.fate !== 'dropped') delete filter.droppedBy;
      if (filter.fate !== 'redacted') delete filter.redactedBy;
      for (const k of Object.keys(filter) as (keyof DocFilter)[]) if (filter[k] === undefined) delete filter[k];
      requery({ filter }, false);
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
