// Kept / dropped per source under the totals (what `assay preview` prints); a figure lists that source's documents.
import type { PreviewResult } from '../../../../shared/contract/index.js';
import { fmtPct } from '../../lib/format.js';
import { tokenHeading } from '../../lib/tokens.js';
import { sourceTotals } from '../../lib/totals.js';
import { useWorkbenchApi } from '../../store/index.js';
import { Fig } from '../common/Fig.js';

export function SourceTotals({ result }: { result: PreviewResult }) {
  const store = useWorkbenchApi();
  const rows = sourceTotals(result);
  if (rows.length === 0) return null;
  const { exact, tokens } = result;
  const show = (source: string, fate: 'kept' | 'dropped') => store.getState().setDocFilter({ fate, droppedBy: undefined, source });
  const est = tokenHeading(tokens.kind);
  return (
    <table className="grid totals by-source" data-testid="source-totals">
      <thead>
        <tr>
          <th>source</th>
          <th className="num" title="documents kept, and their share of the source">kept</th>
          <th className="num" title={tokens.note}>{est}</th>
          <th className="num" title="documents dropped">dropped</th>
          <th className="num" title={tokens.note}>{est}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.source} data-testid={`source-total-${r.source}`}>
            <td className="src" title={r.source}>
              {r.source || '(none)'}
            </td>
            <td className="num clickable-cell" onClick={() => show(r.source, 'kept')} title={`show the kept documents of ${r.source || '(none)'}`}>
              <Fig value={r.kept.docs} exact={exact} testId={`source-total-${r.source}-kept`} /> <span className="pct">{fmtPct(r.kept.docs, r.all.docs)}</span>
            </td>
            <td className="num">
              <Fig value={r.kept.tokens} exact={exact} tokens={tokens} compact testId={`source-total-${r.source}-kept-tokens`} />
            </td>
            <td className="num clickable-cell" onClick={() => show(r.source, 'dropped')} title={`show the dropped documents of ${r.source || '(none)'}`}>
              <Fig value={r.dropped.docs} exact={exact} testId={`source-total-${r.source}-dropped`} /> <span className="pct">{fmtPct(r.dropped.docs, r.all.docs)}</span>
            </td>
            <td className="num">
              <Fig value={r.dropped.tokens} exact={exact} tokens={tokens} compact testId={`source-total-${r.source}-dropped-tokens`} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
