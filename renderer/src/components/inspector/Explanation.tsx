// Why a document is kept or dropped: the host's sentence, the failing sub-rules, then every rule's verdict and the values it read.
import type { ExplainResult, RuleVerdict } from '../../../../shared/contract/index.js';
import { fmtValue } from '../../lib/format.js';
import { findRule, ruleLabel, ruleTitle } from '../../lib/ruleLabel.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

/** The failing sub-rules behind a verdict flag: "top 4-gram fraction 0.31 > 0.2". */
function Because({ because, testId }: { because: NonNullable<RuleVerdict['because']>; testId: string }) {
  return (
    <ul className="because" data-testid={testId}>
      {because.map((b) => (
        <li key={b.key} title={`${b.key} = ${fmtValue(b.value)}${b.threshold !== undefined ? `; the tagger's threshold: ${b.op ?? ''} ${fmtValue(b.threshold)}` : ''}`} data-key={b.key}>
          {b.text}
        </li>
      ))}
    </ul>
  );
}

export function Explanation({ explain }: { explain: ExplainResult }) {
  const store = useWorkbenchApi();
  // The explanation and the preview are asked under the same recipe text, so rule indexes agree.
  const rules = useWorkbench((s) => s.preview.result?.rules);
  const decisive = explain.rules.find((r) => r.index === explain.droppedBy);
  const decisiveRule = findRule(rules, explain.droppedBy);
  const named = (v: RuleVerdict) => findRule(rules, v.index) ?? { index: v.index, kind: v.kind, expression: v.expression };
  return (
    <div className={`explanation fate-${explain.fate}`}>
      <div className="reason">
        <span className={`fate fate-${explain.fate}`} data-testid="inspector-fate" data-fate={explain.fate} data-dropped-by={explain.droppedBy}>
          {explain.fate}
        </span>{' '}
        <span data-testid="inspector-explanation">{explain.reason}</span>
        {decisiveRule && (
          <div className="decisive-rule muted" title={ruleTitle(decisiveRule)} data-testid="inspector-decisive-rule">
            rule {decisiveRule.index}: {ruleLabel(decisiveRule)}
          </div>
        )}
        {decisive?.because && decisive.because.length > 0 && <Because because={decisive.because} testId="inspector-because" />}
      </div>
      {explain.rules.length > 0 && (
        <details open={explain.fate === 'dropped'}>
          <summary>{explain.rules.length} rules evaluated</summary>
          <table className="grid compact verdicts" data-testid="inspector-verdicts">
            <tbody>
              {explain.rules.map((r) => (
                <tr key={r.index} className={`verdict-${r.verdict}${r.index === explain.droppedBy ? ' decisive' : ''}`} data-testid={`verdict-${r.index}`}>
                  <td className="idx">
                    <button className="link" onClick={() => store.getState().setDocFilter({ fate: 'dropped', droppedBy: r.index })} title="documents this rule drops">
                      #{r.index}
                    </button>
                  </td>
                  <td>{r.verdict}</td>
                  <td className="rule">
                    <div className="rule-label" title={ruleTitle(named(r))} data-testid={`verdict-${r.index}-label`}>
                      {ruleLabel(named(r))}
                    </div>
                    <div className="expr" data-testid={`verdict-${r.index}-expr`}>
                      {r.expression}
                    </div>
                    {r.because && r.because.length > 0 && r.index !== explain.droppedBy && <Because because={r.because} testId={`verdict-${r.index}-because`} />}
                  </td>
                  <td className="values">
                    {r.values.map((v) => (
                      <span key={v.key} className="kv" title={v.key}>
                        {v.key} = <b>{fmtValue(v.value)}</b>
                      </span>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </div>
  );
}
