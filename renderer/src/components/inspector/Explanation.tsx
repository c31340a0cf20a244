// Why a document is kept or dropped: the host's sentence, then every rule's verdict and the values it read.
import type { ExplainResult } from '../../../../shared/contract/index.js';
import { fmtValue } from '../../lib/format.js';
import { useWorkbenchApi } from '../../store/index.js';

export function Explanation({ explain }: { explain: ExplainResult }) {
  const store = useWorkbenchApi();
  return (
    <div className={`explanation fate-${explain.fate}`}>
      <div className="reason">
        <span className={`fate fate-${explain.fate}`} data-testid="inspector-fate" data-fate={explain.fate} data-dropped-by={explain.droppedBy}>
          {explain.fate}
        </span>{' '}
        <span data-testid="inspector-explanation">{explain.reason}</span>
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
                  <td className="expr" title={r.expression}>
                    {r.expression}
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
