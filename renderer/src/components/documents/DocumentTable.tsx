// The document table: TanStack Table (v9) over a virtual window of rows, pages fetched as they scroll into view.
import { createColumnHelper, rowSortingFeature, tableFeatures, useTable, type SortingState, type Updater } from '@tanstack/react-table';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { DocumentRow } from '../../../../shared/contract/index.js';
import { changeText, sideLong } from '../../lib/compare.js';
import { fmtInt, fmtValue } from '../../lib/format.js';
import { DEFAULT_TOKEN_NOTE, rowTokensHeading } from '../../lib/tokens.js';
import { virtualWindow } from '../../lib/virtual.js';
import { rowAt, useWorkbench, useWorkbenchApi } from '../../store/index.js';

const ROW_H = 22;
const HEADER_H = 22;
const OVERSCAN = 8;

/** One visible slot: the row's index in the result, and the row once its page has arrived. */
interface Slot {
  index: number;
  row: DocumentRow | undefined;
}

const features = tableFeatures({ rowSortingFeature });
const col = createColumnHelper<typeof features, Slot>();

/** Column widths (px); the text column takes what is left, at least its width here. */
const WIDTH: Record<string, number> = { n: 64, fate: 72, change: 120, why: 190, id: 150, source: 76, chars: 56, tokens: 72, snippet: 260 };
const ATTR_WIDTH = 96;
const NUMERIC = new Set(['n', 'chars', 'tokens']);

function fateCell(r: DocumentRow | undefined) {
  if (!r?.fate) return null;
  if (r.fate === 'kept' && r.redactedBy !== undefined) {
    const rules = r.redactedBy.length === 1 ? `rule ${r.redactedBy[0]}` : `rules ${r.redactedBy.join(', ')}`;
    return (
      <span className="fate fate-redacted" title={`kept; span replacement by ${rules} changes its text`}>
        redacted
      </span>
    );
  }
  const label = r.fate === 'dropped' && r.droppedBy !== undefined ? `rule ${r.droppedBy}` : r.fate;
  return <span className={`fate fate-${r.fate}`}>{label}</span>;
}

/** A row's token figure: `≈` unless a tokenizer counted it. */
function tokensCell(r: DocumentRow | undefined) {
  if (!r) return '';
  if (r.tokensExact) return <span title={`${fmtInt(r.tokens)} tokens (tokenizer count)`}>{fmtInt(r.tokens)}</span>;
  return (
    <span className="estimate" title={`≈ ${fmtInt(r.tokens)} tokens — ${DEFAULT_TOKEN_NOTE}`} data-estimate="true">
      ≈{fmtInt(r.tokens)}
    </span>
  );
}

/** Comparing recipes: the row's fate under the compared recipe → under this one (blank when it did not change). */
function changeCell(r: DocumentRow | undefined) {
  const c = r?.change;
  if (!c) return null;
  return (
    <span className="change" title={`${c.stream}: ${sideLong(c.from)} → ${sideLong(c.to)}`} data-change={c.change}>
      {changeText(c)}
    </span>
  );
}

function buildColumns(attrs: readonly string[], tokensHeading: string, comparing: boolean) {
  return col.columns([
    col.accessor((s) => s.index + 1, { id: 'n', header: '#', enableSorting: false, cell: (c) => fmtInt(c.getValue()) }),
    ...(comparing ? [col.accessor((s) => (s.row?.change ? changeText(s.row.change) : ''), { id: 'change', header: 'old → new', enableSorting: false, cell: (c) => changeCell(c.row.original.row) })] : []),
    col.accessor((s) => s.row?.fate ?? '', { id: 'fate', header: 'fate', enableSorting: false, cell: (c) => fateCell(c.row.original.row) }),
    // Why a dropped row is dropped: the rule's reason, naming the failing sub-rule with value and threshold.
    col.accessor((s) => s.row?.reason ?? '', { id: 'why', header: 'why', enableSorting: false }),
    col.accessor((s) => s.row?.id ?? '…', { id: 'id', header: 'id' }),
    col.accessor((s) => s.row?.source ?? '', { id: 'source', header: 'source' }),
    col.accessor((s) => s.row?.chars, { id: 'chars', header: 'chars', cell: (c) => (c.getValue() === undefined ? '' : fmtInt(c.getValue() as number)) }),
    col.accessor((s) => s.row?.tokens, { id: 'tokens', header: tokensHeading, cell: (c) => tokensCell(c.row.original.row) }),
    ...attrs.map((k) =>
      col.accessor((s) => s.row?.values[k], { id: k, header: k, cell: (c) => { const v = c.getValue(); return v === undefined || v === null ? '' : fmtValue(v); } }),
    ),
    col.accessor((s) => s.row?.snippet ?? '', { id: 'snippet', header: 'text', enableSorting: false }),
  ]);
}

export function DocumentTable() {
  const store = useWorkbenchApi();
  const total = useWorkbench((s) => s.documents.total);
  const pages = useWorkbench((s) => s.documents.pages);
  const version = useWorkbench((s) => s.documents.version);
  const attrs = useWorkbench((s) => s.documents.columns);
  const sort = useWorkbench((s) => s.documents.sort);
  const filter = useWorkbench((s) => s.documents.filter);
  const selectedId = useWorkbench((s) => s.inspector.id);
  const failed = useWorkbench((s) => s.documents.error !== null);
  const comparing = useWorkbench((s) => s.compare.target !== null && s.compare.result !== null);
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 300 });

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setView((v) => ({ ...v, height: el.clientHeight })));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  // A new filter is a new result set: start from its top.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [filter]);

  // The sticky header covers the top of the scroller, so rows have its height less to show in.
  // Until the first page answers, placeholder rows fill the view (none when the request failed).
  const rowCount = total ?? (failed ? 0 : Math.ceil(view.height / ROW_H));
  const win = virtualWindow({ scrollTop: view.top, viewportHeight: Math.max(ROW_H, view.height - HEADER_H), rowHeight: ROW_H, total: rowCount, overscan: OVERSCAN });
  useEffect(() => {
    // Asked even with no rows in view, so a failed first page is retried when the query changes.
    store.getState().ensureRows(win.start, Math.max(win.start, win.end));
  }, [store, win.start, win.end, version]);

  const data = useMemo<Slot[]>(() => {
    const out: Slot[] = [];
    for (let i = win.start; i <= win.end && (total === null || i < total); i++) out.push({ index: i, row: rowAt({ pages }, i) });
    return out;
  }, [pages, win.start, win.end, total]);
  const tokensHeading = rowTokensHeading(data.flatMap((s) => (s.row ? [s.row] : [])));
  const columns = useMemo(() => buildColumns(attrs, tokensHeading, comparing), [attrs, tokensHeading, comparing]);
  const sorting = useMemo<SortingState>(() => (sort ? [{ id: sort.column, desc: sort.desc }] : []), [sort]);
  const widths = columns.map((c) => WIDTH[c.id ?? ''] ?? ATTR_WIDTH);
  const template = widths.map((w, i) => (i === widths.length - 1 ? `minmax(${w}px, 1fr)` : `${w}px`)).join(' ');
  const minWidth = widths.reduce((a, w) => a + w, 0);

  const table = useTable({
    features,
    columns,
    data,
    getRowId: (s) => String(s.index),
    manualSorting: true,
    state: { sorting },
    onSortingChange: (u: Updater<SortingState>) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      store.getState().setSort(next[0] ? { column: next[0].id, desc: next[0].desc } : null);
    },
  });

  const select = (slot: Slot | undefined) => {
    if (slot?.row) void store.getState().selectDocument(slot.row.id);
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const at = data.findIndex((s) => s.row?.id === selectedId);
    const next = data[at < 0 ? 0 : at + (e.key === 'ArrowDown' ? 1 : -1)];
    select(next);
    // Overscan keeps the neighbour rendered; bring it into view so the selection can walk the whole table.
    if (next) scroller.current?.querySelector(`[data-testid="doc-row-${next.index}"]`)?.scrollIntoView({ block: 'nearest' });
  };

  return (
    <div className="doc-table" data-testid="documents-table" role="table" aria-rowcount={total ?? undefined}>
      <div className="tbody" ref={scroller} tabIndex={0} onKeyDown={onKey} onScroll={(e) => setView({ top: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}>
        {table.getHeaderGroups().map((g) => (
          <div key={g.id} className="tr th-row" role="row" style={{ gridTemplateColumns: template, minWidth, height: HEADER_H }}>
            {g.headers.map((h) => {
              const dir = h.column.getIsSorted();
              return (
                <div
                  key={h.id}
                  role="columnheader"
                  className={`th${NUMERIC.has(h.id) ? ' num' : ''}${h.column.getCanSort() ? ' sortable' : ''}`}
                  onClick={h.column.getToggleSortingHandler()}
                  title={h.column.getCanSort() ? `sort by ${h.id} (over all matching documents)` : undefined}
                  data-testid={`doc-col-${h.id}`}
                >
                  <table.FlexRender header={h} />
                  {dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}
                </div>
              );
            })}
          </div>
        ))}
        <div style={{ height: win.contentHeight, position: 'relative', minWidth }}>
          <div style={{ position: 'absolute', top: win.top, left: 0, right: 0 }}>
            {table.getRowModel().rows.map((r) => {
              const slot = r.original;
              const id = slot.row?.id;
              return (
                <div
                  key={r.id}
                  role="row"
                  className={`tr${id !== undefined && id === selectedId ? ' selected' : ''}${slot.row ? '' : ' pending'}`}
                  style={{ gridTemplateColumns: template, height: ROW_H }}
                  onClick={() => select(slot)}
                  data-testid={`doc-row-${slot.index}`}
                  data-doc-id={id}
                  data-fate={slot.row?.fate}
                  data-dropped-by={slot.row?.droppedBy}
                  data-redacted-by={slot.row?.redactedBy?.join(',')}
                  data-change={slot.row?.change?.change}
                >
                  {r.getAllCells().map((c) => (
                    <div key={c.id} role="cell" className={`td${NUMERIC.has(c.column.id) ? ' num' : ''}`} title={c.column.id === 'snippet' || c.column.id === 'id' || c.column.id === 'why' ? String(c.getValue() ?? '') : undefined}
                      data-col={c.column.id}>
                      <table.FlexRender cell={c} />
                    </div>
                  ))}
                </div>
              );
            })}
          </div>
        </div>
        {total === 0 && <p className="muted pad">no documents match</p>}
      </div>
    </div>
  );
}
