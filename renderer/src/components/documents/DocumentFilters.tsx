// Filter bar of the document table: search, fate (kept / redacted / dropped by rule N / outside), source, bucket and range chips, columns, export.
import type { PreviewRule } from '../../../../shared/contract/index.js';
import { fmtValue } from '../../lib/format.js';
import { findRule, ruleLabel, ruleTitle } from '../../lib/ruleLabel.js';
import type { BucketFilter, DocFilter, FateFilter } from '../../lib/urlState.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { ChangeFilter } from './ChangeFilter.js';
import { ColumnPicker } from './ColumnPicker.js';
import { ExportControl } from './ExportControl.js';
import { SearchBox } from './SearchBox.js';

/** The fate select's value: '', 'kept', 'redacted', 'dropped', 'outside', 'rule:N' (dropped by) or 'redacted:N'. */
function fateValue(f: DocFilter): string {
  if (f.fate === 'redacted' && f.redactedBy !== undefined) return `redacted:${f.redactedBy}`;
  return f.droppedBy !== undefined ? `rule:${f.droppedBy}` : (f.fate ?? '');
}

/** What a bucket chip says, e.g. "dropped by rule 3 (word count < 50) alone". */
function bucketLabel({ rule, bucket }: BucketFilter, rules: readonly PreviewRule[] | undefined): string {
  const r = findRule(rules, rule);
  const name = r ? `rule ${rule} (${ruleLabel(r)})` : `rule ${rule}`;
  if (bucket === 'kept') return rule === -1 ? 'kept by the recipe' : `kept by the stream of ${name}`;
  return bucket === 'alone' ? `dropped by ${name} alone` : bucket === 'exclusive' ? `dropped only by ${name}` : `dropped by ${name} in order`;
}

/** A rule in the fate select: number and label (the option's hover has the expression). */
const optionText = (verb: string, r: PreviewRule): string => `${verb} rule ${r.index} · ${ruleLabel(r)}`;

export function DocumentFilters() {
  const filter = useWorkbench((s) => s.documents.filter);
  const rules = useWorkbench((s) => s.preview.result?.rules);
  const sources = useWorkbench((s) => s.workspace.info?.sources);
  const store = useWorkbenchApi();
  const s = () => store.getState();

  const setFate = (v: string) => {
    if (v.startsWith('rule:')) s().setDocFilter({ fate: 'dropped', droppedBy: Number(v.slice(5)) });
    else if (v.startsWith('redacted:')) s().setDocFilter({ fate: 'redacted', redactedBy: Number(v.slice(9)) });
    else s().setDocFilter({ fate: v === '' ? undefined : (v as FateFilter), droppedBy: undefined, redactedBy: undefined });
  };
  const replacers = (rules ?? []).filter((r) => r.kind === 'span_replacement');
  const bucketRule = filter.bucket ? findRule(rules, filter.bucket.rule) : undefined;
  const fateRule = findRule(rules, filter.droppedBy ?? filter.redactedBy);

  return (
    <div className="toolbar filters" data-testid="document-filters">
      <SearchBox />
      <select value={fateValue(filter)} onChange={(e) => setFate(e.target.value)} data-testid="filter-fate" aria-label="fate" title={fateRule ? ruleTitle(fateRule) : undefined}>
        <option value="">all fates</option>
        <option value="kept">kept</option>
        <option value="redacted">kept, redacted</option>
        {replacers.map((r) => (
          <option key={r.index} value={`redacted:${r.index}`} title={ruleTitle(r)}>
            {optionText('redacted by', r)}
          </option>
        ))}
        {filter.redactedBy !== undefined && !replacers.some((r) => r.index === filter.redactedBy) && <option value={`redacted:${filter.redactedBy}`}>redacted by rule {filter.redactedBy}</option>}
        <option value="dropped">dropped (any rule)</option>
        {(rules ?? [])
          .filter((r) => r.kind !== 'span_replacement')
          .map((r) => (
            <option key={r.index} value={`rule:${r.index}`} title={ruleTitle(r)}>
              {optionText('dropped by', r)}
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
      <ChangeFilter />
      {filter.bucket && (
        <span className="chip" data-testid="bucket-chip" data-rule={filter.bucket.rule} data-bucket={filter.bucket.bucket} title={`documents of one figure of the rule table${bucketRule ? ` — ${ruleTitle(bucketRule)}` : ''}`}>
          {bucketLabel(filter.bucket, rules)}
          <button className="chip-x" onClick={() => s().clearBucket()} aria-label="show all documents again" data-testid="bucket-chip-clear">
            ×
          </button>
        </span>
      )}
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
      <ExportControl />
    </div>
  );
}
