// Distributions: pick an attribute (or a rule with a numeric threshold), see its histogram, drag the threshold into the YAML.
import type { AttributeKeyInfo } from '../../../../shared/contract/index.js';
import { fmtInt, fmtValue } from '../../lib/format.js';
import { currentThreshold, sweepRule, useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { HistogramChart } from './HistogramChart.js';

const NO_ATTRIBUTES: AttributeKeyInfo[] = [];

export function DistributionsTab() {
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const attributes = useWorkbench((st) => st.workspace.info?.attributes ?? NO_ATTRIBUTES);
  const rules = useWorkbench((st) => st.preview.result?.rules);
  const { key, rule, bins, histogram, loading, error } = useWorkbench((st) => st.distributions);
  const sweep = useWorkbench((st) => sweepRule(st)?.sweep ?? null);
  const threshold = useWorkbench(currentThreshold);
  const range = useWorkbench((st) => st.documents.filter.ranges.find((r) => r.key === key) ?? null);
  const sweepRules = (rules ?? []).filter((r) => r.sweep);

  const onBar = (i: number) => {
    if (!histogram) return;
    s().setRangeFilter({ key: histogram.key, min: histogram.edges[i] as number, max: histogram.edges[i + 1] as number });
  };

  return (
    <div className="distributions" data-testid="distributions">
      <div className="toolbar">
        <label>
          rule{' '}
          <select value={rule ?? ''} onChange={(e) => s().selectSweepRule(e.target.value === '' ? null : Number(e.target.value))} data-testid="sweep-rule-select">
            <option value="">(none)</option>
            {sweepRules.map((r) => (
              <option key={r.index} value={r.index}>
                #{r.index} {r.sweep?.key} {r.sweep?.op} {r.sweep?.threshold}
              </option>
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
        {sweep && threshold !== null && (
          <ThresholdInput value={threshold} onSet={(lit) => s().setThreshold(lit)} />
        )}
        <span className="spacer" />
        {histogram && (
          <span className="muted" data-testid="histogram-stats">
            {fmtInt(histogram.present)} of {fmtInt(histogram.total)} docs have it · {fmtValue(histogram.min)} … {fmtValue(histogram.max)} · {bins} bins
          </span>
        )}
      </div>
      {error && <div className="error-box">{error}</div>}
      {loading && <p className="muted pad">loading histogram…</p>}
      {histogram ? (
        <HistogramChart histogram={histogram} sweep={sweep} threshold={threshold} activeRange={range} onBarClick={onBar} onDrag={(lit) => s().setThreshold(lit)} />
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
