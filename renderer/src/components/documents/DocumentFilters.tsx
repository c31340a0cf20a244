// Filter bar of the document table: fate (kept / dropped / dropped by rule N / outside), source, range chips, columns.
import { fmtValue } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { ColumnPicker } from './ColumnPicker.js';

/** The fate select's value: '', 'kept', 'dropped', 'outside' or 'rule:N'. */
function fateValue(fate: string | undefined, droppedBy: number | undefined): string {
  return droppedBy !== undefined ? `rule:${droppedBy}` : (fate ?? '');
}

export function DocumentFilters() {
  const filter = useWorkbench((s) => s.documents.filter);
  const rules = useWorkbench((s) => s.preview.result?.rules);
  const sources = useWorkbench((s) => s.workspace.info?.sources);
  const store = useWorkbenchApi();
  const s = () => store.getState();

  const setFate = (v: string) => {
    if (v.startsWith('rule:')) s().setDocFilter({ fate: 'dropped', droppedBy: Number(v.slice(5)) });
    else s().setDocFilter({ fate: v === '' ? undefined : (v as 'kept' | 'dropped' | 'outside'), droppedBy: undefined });
  };

  return (
    <div className="toolbar filters" data-testid="document-filters">
      <select value={fateValue(filter.fate, filter.droppedBy)} onChange={(e) => setFate(e.target.value)} data-testid="filter-fate" aria-label="fate">
        <option value="">all fates</option>
        <option value="kept">kept</option>
        <option value="dropped">dropped (any rule)</option>
        {(rules ?? [])
          .filter((r) => r.kind !== 'span_replacement')
          .map((r) => (
            <option key={r.index} value={`rule:${r.index}`}>
              dropped by rule {r.index}
            </option>
          ))}
        {filter.droppedBy !== undefined && !(rules ?? []).some((r) => r.index === filter.droppedBy) && <option value={`rule:${filter.droppedBy}`}>dropped by rule {filter.droppedBy}</option>}
        <option value="outside">outside streams</option>
      </select>
      <select value={filter.source ?? '\u0000'} onChange={(e) => s().setDocFilter({ source: e.target.value === '\u0000' ? undefined : e.target.value })} data-testid="filter-source" aria-label="source">
        <option value={'\u0000'}>all sources</option>
        {(sources ?? []).map((src) => (
          <option key={src.source} value={src.source}>
            {src.source || '(none)'}
          </option>
        ))}
      </select>
      {filter.ranges.map((r) => (
        <span key={r.key} className="chip" data-testid={`range-chip-${r.key}`} title="attribute range filter">
          {r.min !== undefined ? `${fmtValue(r.min)} ≤ ` : ''}
          {r.key}
          {r.max !== undefined ? ` ≤ ${fmtValue(r.max)}` : ''}
          <button className="chip-x" onClick={() => s().clearRangeFilter(r.key)} aria-label={`remove range on ${r.key}`}>
            ×
          </button>
        </span>
      ))}
      <span className="spacer" />
      <ColumnPicker />
    </div>
  );
}
