// The mix planner: a token budget, a target share per source (slider and field), max repetitions; the plan it writes or why none fits.
import { useEffect, useState } from 'react';
import { fmtCompact, fmtInt } from '../../lib/format.js';
import { parseBudget, refusalText, sourceName, targetTotal } from '../../lib/ledger.js';
import { isEstimate } from '../../lib/tokens.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

function BudgetField({ value, onSet }: { value: number; onSet: (v: number) => void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const parsed = parseBudget(text);
  const commit = () => (parsed === null ? setText(String(value)) : parsed !== value && onSet(parsed));
  return (
    <label title="seen tokens to train on: 2e9, 2G, 1,500,000">
      budget{' '}
      <input className={`num-input${parsed === null ? ' invalid' : ''}`} value={text} onChange={(e) => setText(e.target.value)} onBlur={commit} onKeyDown={(e) => e.key === 'Enter' && commit()} data-testid="planner-budget" />
      <span className="muted"> {fmtCompact(value)} tokens</span>
    </label>
  );
}

export function Planner() {
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const { budget, targets, maxRepetitions, result, running, error } = useWorkbench((st) => st.ledger.planner);
  if (budget === null) return null;
  const planned = result?.feasible ? new Map(result.sources.map((p) => [p.source, p])) : null;
  const total = targetTotal(targets);
  const approx = result?.feasible && isEstimate(result.ledger.tokens.kind) ? '≈' : '';
  return (
    <div className="planner" data-testid="planner" data-running={running}>
      <div className="subhead">
        <span>Mix planner</span>
        <span className="spacer" />
        <button className="link" onClick={() => s().resetTargets()} title="targets back to the shares the recipe gives now">
          reset targets
        </button>
      </div>
      <div className="toolbar plain">
        <BudgetField value={budget} onSet={(v) => s().setBudget(v)} />
        <label title="most copies written of one document (1: never upsample)">
          max repetitions{' '}
          <input type="number" min={1} step={1} className="num-input short" value={maxRepetitions} onChange={(e) => s().setMaxRepetitions(Number(e.target.value))} data-testid="planner-max-repetitions" />
        </label>
      </div>
      <table className="grid planner-table">
        <thead>
          <tr>
            <th>source</th>
            <th>target share</th>
            <th className="num">fraction</th>
            <th className="num">repeat</th>
            <th className="num">seen tokens</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(targets).map(([source, share]) => {
            const p = planned?.get(source);
            return (
              <tr key={source} data-testid={`planner-row-${source}`}>
                <td>{sourceName(source)}</td>
                <td className="target-cell">
                  <input type="range" min={0} max={1000} step={1} value={Math.round(share * 1000)} onChange={(e) => s().setPlanTarget(source, Number(e.target.value) / 1000)} aria-label={`target share of ${sourceName(source)}`} data-testid={`planner-target-${source}`} />
                  <input type="number" min={0} max={100} step={0.1} className="num-input short" value={+(share * 100).toFixed(1)} onChange={(e) => s().setPlanTarget(source, Number(e.target.value) / 100)} aria-label={`target % of ${sourceName(source)}`} data-testid={`planner-target-pct-${source}`} />%
                </td>
                <td className="num" data-testid={`planner-fraction-${source}`}>{p ? p.fraction.toFixed(4) : '–'}</td>
                <td className="num">{p ? p.repeat : '–'}</td>
                <td className="num" data-testid={`planner-seen-${source}`} data-value={p?.seenTokens}>{p ? `${approx}${fmtInt(p.seenTokens)}` : '–'}</td>
              </tr>
            );
          })}
          <tr className="total-row">
            <td>total</td>
            <td data-testid="planner-target-total" data-value={total}>{(100 * total).toFixed(1)}%</td>
            <td colSpan={2} />
            <td className="num">{planned ? `${approx}${fmtInt([...planned.values()].reduce((a, p) => a + p.seenTokens, 0))} of ${fmtCompact(budget)}` : ''}</td>
          </tr>
        </tbody>
      </table>
      {running && <p className="muted pad">planning…</p>}
      {result && !result.feasible && (
        <div className="error-box" data-testid="planner-refusal" data-source={result.source}>
          No plan meets these targets — {refusalText(result)}. The recipe was not changed.
        </div>
      )}
      {error && <div className="error-box">{error}</div>}
      {result?.feasible && !running && <p className="muted pad" data-testid="planner-written">the plan's assay.sample / assay.repeat are written into the recipe (Ctrl+Z undoes)</p>}
    </div>
  );
}
