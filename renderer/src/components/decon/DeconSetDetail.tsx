// One contaminated eval set: documents and tokens per source holding its items, and its top items with their text and documents (a click inspects one).
import type { DeconSetReport } from '../../../../shared/contract/index.js';
import { fmtInt } from '../../lib/format.js';
import { useWorkbenchApi } from '../../store/index.js';
import { Tok } from './Tok.js';

export function DeconSetDetail({ set }: { set: DeconSetReport }) {
  const store = useWorkbenchApi();
  return (
    <details className="decon-set" open data-testid={`decon-detail-${set.set}`}>
      <summary>
        {set.set}: {fmtInt(set.docs)} {set.docs === 1 ? 'document holds' : 'documents hold'} its items
      </summary>
      <table className="grid compact">
        <thead>
          <tr>
            <th>source</th>
            <th className="num">docs</th>
            <th className="num">of</th>
            <th className="num">tokens</th>
            <th className="num">of</th>
          </tr>
        </thead>
        <tbody>
          {set.bySource.map((b) => (
            <tr key={b.source} data-testid={`decon-source-${set.set}-${b.source}`} data-docs={b.docs}>
              <td>{b.source || '(no source)'}</td>
              <td className="num">{fmtInt(b.docs)}</td>
              <td className="num muted">{fmtInt(b.totalDocs)}</td>
              <td className="num">
                <Tok t={b.tokens} />
              </td>
              <td className="num muted">
                <Tok t={b.totalTokens} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <ol className="decon-top">
        {set.top.map((t) => (
          <li key={t.ref} data-testid={`decon-item-${t.ref}`} data-docs={t.docs}>
            <code>{t.ref}</code> · {fmtInt(t.docs)} document{t.docs === 1 ? '' : 's'}
            {t.text !== null ? <blockquote className="decon-text">{t.text}</blockquote> : <span className="muted"> (text not in the eval items file)</span>}
            <span className="decon-docs">
              {t.documents.map((id) => (
                <button key={id} className="link" onClick={() => void store.getState().selectDocument(id)} data-testid={`decon-doc-${id}`}>
                  {id}
                </button>
              ))}
              {t.docs > t.documents.length && <span className="muted"> … {fmtInt(t.docs - t.documents.length)} more</span>}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}
