// The per-rule table: each rule by its label, dropped alone / exclusively / sequentially in documents and (est.) tokens, per source; CSV export.
import type { CountBySource, PreviewResult, PreviewRule } from '../../../../shared/contract/index.js';
import { ruleTableCsv } from '../../lib/csv.js';
import { fmtCompact, fmtInt, fmtPct } from '../../lib/format.js';
import { ruleLabel, ruleTitle } from '../../lib/ruleLabel.js';
import { leadSubRule } from '../../lib/subRules.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { downloadText } from '../common/download.js';
import { Fig } from '../common/Fig.js';

const BUCKETS = ['alone', 'exclusive', 'sequential'] as const;
type Bucket = (typeof BUCKETS)[number];

const BUCKET_HELP: Record<Bucket, string> = {
  alone: 'dropped by this rule if it were the only rule',
  exclusive: 'dropped by this rule and by no other rule',
  sequential: 'dropped by this rule when rules apply in recipe order (the first rule that drops a document gets it)',
};

function sourcesOf(r: PreviewRule): string[] {
  return [...new Set(BUCKETS.flatMap((b) => Object.keys(r[b].bySource)))].sort();
}

export function RuleTable({ result }: { result: PreviewResult }) {
  const expanded = useWorkbench((s) => s.preview.expanded);
  const total = result.total.docs;
  const exportCsv = () => downloadText('preview-rules.csv', ruleTableCsv(result), 'text/csv');
  return (
    <>
    <div className="subhead">
      <span>Rules</span>
      <span className="spacer" />
      <button className="link" onClick={exportCsv} title="download this table (every rule, then per source) as CSV" data-testid="rules-export-csv">
        export CSV
      </button>
    </div>
    <table className="grid rules" data-testid="rule-table">
      <thead>
        <tr>
          <th>#</th>
          <th>rule</th>
          {BUCKETS.map((b) => (
            <th key={b} className="num" title={BUCKET_HELP[b]}>
              {b}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {result.rules.map((r) => (
          <RuleRows key={r.index} rule={r} result={result} total={total} open={expanded[r.index] === true} />
        ))}
      </tbody>
    </table>
    </>
  );
}

function RuleRows({ rule: r, result, total, open }: { rule: PreviewRule; result: PreviewResult; total: number; open: boolean }) {
  const { exact, tokens } = result;
  const level = result.sample?.level;
  const store = useWorkbenchApi();
  const shown = useWorkbench((st) => st.documents.filter);
  const s = () => store.getState();
  const showDropped = () => s().setDocFilter({ fate: 'dropped', droppedBy: r.index });
  const showRedacted = () => s().setDocFilter({ fate: 'redacted', redactedBy: r.index });
  const firstSub = leadSubRule(r);
  const showSweep = () => {
    // A 0/1 verdict flag says little on a histogram: show the value behind its first sub-rule instead.
    if (firstSub) s().selectSubRule(r.index, firstSub.key);
    else s().selectSweepRule(r.index);
    s().setBottomTab('distributions');
  };
  /** A figure's cell: clicking it lists that bucket's documents (of `source` on a per-source row). */
  const cell = (b: Bucket, c: CountBySource, prefix: string, source?: string) => {
    const pressed = shown.bucket?.rule === r.index && shown.bucket.bucket === b && shown.source === source;
    return (
      <td key={b} className="num" title={`${BUCKET_HELP[b]}: ${fmtPct(c.docs, total)} of documents — click to list them`}>
        <button
          className="fig-button"
          onClick={(e) => {
            e.stopPropagation();
            s().showBucket(r.index, b, source);
          }}
          aria-pressed={pressed}
          data-testid={`${prefix}-show-${b}`}
        >
          <Fig value={c.docs} exact={exact} ci={c.ci?.docs} level={level} testId={`${prefix}-${b}-docs`} />
          <br />
          <Fig value={c.tokens} exact={exact} tokens={tokens} ci={c.ci?.tokens} level={level} compact testId={`${prefix}-${b}-tokens`} />
        </button>
      </td>
    );
  };
  return (
    <>
      <tr className={`rule-row kind-${r.kind}`} data-testid={`rule-${r.index}-row`} onClick={() => s().toggleRuleExpanded(r.index)} aria-expanded={open}>
        <td className="idx">{open ? '▾' : '▸'}{r.index}</td>
        <td className="rule-cell">
          <span className={`kind kind-${r.kind}`}>{r.kind.replace('_', ' ')}</span>
          <span className="rule-label" title={ruleTitle(r)} data-testid={`rule-${r.index}-label`}>
            {ruleLabel(r)}
          </span>
          <span className="rule-actions" onClick={(e) => e.stopPropagation()}>
            {r.line !== undefined && (
              <button className="link" title="show in the editor" onClick={() => s().revealLine(r.line ?? 1)}>
                L{r.line}
              </button>
            )}
            {(r.sweep || firstSub) && (
              <button className="link" title={firstSub ? `histograms of the sub-rules behind this flag (${firstSub.label}, …)` : `histogram of ${r.sweep?.key} with this rule's threshold`} onClick={showSweep} data-testid={`rule-${r.index}-sweep`}>
                hist
              </button>
            )}
            {r.kind !== 'span_replacement' ? (
              <button className="link" title="documents this rule drops (in recipe order)" onClick={showDropped} data-testid={`rule-${r.index}-show-dropped`}>
                docs
              </button>
            ) : (
              <button className="link" title="kept documents whose text this rule changes" onClick={showRedacted} data-testid={`rule-${r.index}-show-redacted`}>
                docs
              </button>
            )}
          </span>
          {r.path === 'exact' && (
            <span className="badge warn" data-testid={`rule-${r.index}-badge-exact`} title={r.pathReason ?? 'evaluated exactly on stored attributes (slower)'}>
              exact path
            </span>
          )}
          {r.missingKeys.length > 0 && (
            <span className="badge err" data-testid={`rule-${r.index}-badge-missing`} title={`no indexed document has: ${r.missingKeys.join(', ')}`}>
              missing {r.missingKeys.length === 1 ? 'key' : `${r.missingKeys.length} keys`}
            </span>
          )}
          {r.replacement && (
            <span className="muted" data-testid={`rule-${r.index}-replacement`}>
              {' '}
              replaces {fmtCompact(r.replacement.chars)} chars in {fmtInt(r.replacement.docs)} docs
            </span>
          )}
        </td>
        {BUCKETS.map((b) => cell(b, r[b], `rule-${r.index}`))}
      </tr>
      {open &&
        sourcesOf(r).map((src) => (
          <tr key={src} className="source-row" data-testid={`rule-${r.index}-source-${src}`}>
            <td />
            <td className="muted">source {src || '(none)'}</td>
            {BUCKETS.map((b) => cell(b, { ...(r[b].bySource[src] ?? { docs: 0, tokens: 0 }), bySource: {} }, `rule-${r.index}-source-${src}`, src))}
          </tr>
        ))}
      {open && sourcesOf(r).length === 0 && (
        <tr className="source-row">
          <td />
          <td className="muted" colSpan={4}>
            no per-source split
          </td>
        </tr>
      )}
    </>
  );
}
