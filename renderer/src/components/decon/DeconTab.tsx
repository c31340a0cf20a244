// The Contamination tab: per eval set of a decon attribute set, the share of items overlapped, documents and tokens per source, the top items.
import { fmtFraction } from '../../lib/decon.js';
import { fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { DeconSetDetail } from './DeconSetDetail.js';
import { Tok } from './Tok.js';

export function DeconTab() {
  const store = useWorkbenchApi();
  const { target, report, loading, error } = useWorkbench((s) => s.decon);
  const attributes = useWorkbench((s) => s.workspace.info?.attributes);
  const targets = attributes ? store.getState().deconTargets() : [];
  const s = () => store.getState();
  const value = target ? `${target.set}\u0000${target.name}` : '';
  return (
    <div className="decon" data-testid="decon" data-loading={loading}>
      <div className="toolbar">
        <label>
          decon set{' '}
          <select value={value} data-testid="decon-target" onChange={(e) => void s().loadDeconReport(targets.find((t) => `${t.set}\u0000${t.name}` === e.target.value))}>
            {targets.length === 0 && <option value="">(none)</option>}
            {targets.map((t) => (
              <option key={`${t.set}/${t.name}`} value={`${t.set}\u0000${t.name}`}>
                {t.set === t.name ? t.name : `${t.name} (attributes/${t.set})`}
              </option>
            ))}
          </select>
        </label>
        <button onClick={() => void s().loadDeconReport()} disabled={loading} data-testid="decon-refresh">
          refresh
        </button>
        <button onClick={() => void s().loadDeconReport(undefined, true)} disabled={loading || !report} data-testid="decon-save" title="save as attributes/<set>/.assay/decon-report.json, listed in the run manifest">
          save report
        </button>
        <span className="spacer" />
        <span className="muted" data-testid="decon-status">
          {loading ? 'reading decon attributes…' : report ? `${fmtInt(report.contaminated)} of ${fmtInt(report.docs)} documents hit · ${fmtInt(report.ngrams)} overlapping n-grams` : ''}
        </span>
      </div>
      {error && <div className="error-box">{error}</div>}
      {report && report.written.length > 0 && <p className="muted pad" data-testid="decon-written">saved: {report.written.join(', ')}</p>}
      {report ? (
        <div className="decon-body">
          <table className="grid" data-testid="decon-sets">
            <thead>
              <tr>
                <th>eval set</th>
                <th className="num">items</th>
                <th className="num">hit</th>
                <th className="num">contaminated</th>
                <th className="num">docs</th>
                <th className="num">{report.sets.every((x) => x.tokens.kind === 'exact') ? 'tokens' : 'est. tokens'}</th>
              </tr>
            </thead>
            <tbody>
              {report.sets.map((x) => (
                <tr key={x.set} data-testid={`decon-set-${x.set}`} data-fraction={x.fraction ?? ''}>
                  <td>{x.set}</td>
                  <td className="num">{x.items === null ? '?' : fmtInt(x.items)}</td>
                  <td className="num">{fmtInt(x.hitItems)}</td>
                  <td className="num" data-testid={`decon-fraction-${x.set}`}>
                    {fmtFraction(x.fraction)}
                  </td>
                  <td className="num">{fmtInt(x.docs)}</td>
                  <td className="num">
                    <Tok t={x.tokens} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {report.sets.length === 0 && <p className="muted pad">no eval set: no document has a hit and there is no eval items file</p>}
          {report.sets.filter((x) => x.docs > 0).map((x) => (
            <DeconSetDetail key={x.set} set={x} />
          ))}
          {report.notes.map((n) => (
            <p key={n} className="muted pad">
              note: {n}
            </p>
          ))}
        </div>
      ) : (
        !error && <p className="muted pad">{loading ? 'computing the report…' : 'no report yet'}</p>
      )}
    </div>
  );
}
