// Distributions: pick an attribute, a rule with a numeric threshold or a flag rule's sub-rule; see its histogram, drag the threshold.
import type { AttributeKeyInfo } from '../../../../shared/contract/index.js';
import { fmtInt, fmtValue } from '../../lib/format.js';
import { ruleLabel, ruleTitle } from '../../lib/ruleLabel.js';
import { parseSubRuleValue, subRuleOptions, subRuleTest, subRuleValue } from '../../lib/subRules.js';
import { shownSubRule } from '../../store/distributions.js';
import { currentThreshold, sweepRule, useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { HistogramChart } from './HistogramChart.js';
import { SubRuleNote } from './SubRuleNote.js';

const NO_ATTRIBUTES: AttributeKeyInfo[] = [];

export function DistributionsTab() {
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const attributes = useWorkbench((st) => st.workspace.info?.attributes ?? NO_ATTRIBUTES);
  const rules = useWorkbench((st) => st.preview.result?.rules);
  const { key, rule, subRule, bins, histogram, loading, error } = useWorkbench((st) => st.distributions);
  const sweep = useWorkbench((st) => sweepRule(st)?.sweep ?? null);
  const threshold = useWorkbench(currentThreshold);
  const sub = useWorkbench(shownSubRule);
  const range = useWorkbench((st) => st.documents.filter.ranges.find((r) => r.key === key) ?? null);
  // A 0/1 verdict flag is offered through its sub-rules' values, not as the flag itself.
  const sweepRules = (rules ?? []).filter((r) => r.sweep && !(r.subRules && r.subRules.length > 0));
  const flagRules = (rules ?? []).filter((r) => r.subRules && r.subRules.length > 0);
  const subOptions = subRuleOptions(rules ?? []);
  const selectValue = subRule ? subRuleValue(subRule.rule, subRule.key) : rule !== null ? String(rule) : '';
  // The tagger's threshold, drawn as a fixed line when no recipe rule compares the value.
  const fixed = sub && sweep === null && sub.threshold !== undefined ? { value: sub.threshold, op: sub.op } : null;

  const onBar = (i: number) => {
    if (!histogram) return;
    s().setRangeFilter({ key: histogram.key, min: histogram.edges[i] as number, max: histogram.edges[i + 1] as number });
  };
  const onRule = (v: string) => {
    const p = parseSubRuleValue(v);
    if (p) s().selectSubRule(p.rule, p.key);
    else s().selectSweepRule(v === '' ? null : Number(v));
  };

  return (
    <div className="distributions" data-testid="distributions">
      <div className="toolbar">
        <label>
          rule{' '}
          <select value={selectValue} onChange={(e) => onRule(e.target.value)} data-testid="sweep-rule-select">
            <option value="">(none)</option>
            {sweepRules.map((r) => (
              <option key={r.index} value={r.index} title={ruleTitle(r)}>
                #{r.index} {ruleLabel(r)}
              </option>
            ))}
            {flagRules.map((r) => (
              <optgroup key={r.index} label={`#${r.index} ${ruleLabel(r)} — sub-rules`}>
                {subOptions
                  .filter((o) => o.rule === r.index)
                  .map((o) => (
                    <option key={o.sub.key} value={subRuleValue(o.rule, o.sub.key)} title={`${o.sub.key}${o.tunable !== undefined ? ` — tuned by rule ${o.tunable}` : ' — the tagger’s threshold (add a rule to tune it)'}`}>
                      {subRuleTest(o.sub)}
                      {o.tunable !== undefined ? ` (rule ${o.tunable})` : ''}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          attribute{' '}
          <select value={key ?? ''} onChange={(e) => s().selectAttribute(e.target.value || null)} data-testid="histogram-key-select">
            <option value="">choose…</option>
            {key !== null && !attributes.some((a) => a.key === key) && <option value={key}>{key}</option>}
            {attributes.map((a) => (
              <option key={a.key} value={a.key}>
                {a.key}
              </option>
            ))}
          </select>
        </label>
        {sweep && threshold !== null && <ThresholdInput value={threshold} onSet={(lit) => s().setThreshold(lit)} />}
        <span className="spacer" />
        {histogram && (
          <span className="muted" data-testid="histogram-stats">
            {fmtInt(histogram.present)} of {fmtInt(histogram.total)} docs have it · {fmtValue(histogram.min)} … {fmtValue(histogram.max)} · {bins} bins
          </span>
        )}
      </div>
      {sub && <SubRuleNote sub={sub} tunable={sweep !== null} />}
      {error && <div className="error-box">{error}</div>}
      {loading && <p className="muted pad">loading histogram…</p>}
      {histogram ? (
        <HistogramChart histogram={histogram} sweep={sweep} threshold={threshold} fixed={fixed} activeRange={range} onBarClick={onBar} onDrag={(lit) => s().setThreshold(lit)} />
      ) : (
        !loading && <p className="muted pad">Choose an attribute, or a rule that compares an attribute with a number (its threshold becomes draggable).</p>
      )}
    </div>
  );
}

function ThresholdInput({ value, onSet }: { value: number; onSet(literal: string): void }) {
  return (
    <label title="the threshold in the recipe; typing here rewrites the YAML">
      threshold{' '}
      <input
        key={value}
        className="num-input"
        defaultValue={String(value)}
        data-testid="threshold-input"
        onKeyDown={(e) => {
          const v = e.currentTarget.value.trim();
          if (e.key === 'Enter' && v !== '' && Number.isFinite(Number(v))) onSet(v);
        }}
      />
    </label>
  );
}
