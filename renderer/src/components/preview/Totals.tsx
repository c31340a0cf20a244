// Totals of the preview: documents and (estimated) tokens indexed, kept, dropped and outside every stream, then per source.
import type { PreviewResult } from '../../../../shared/contract/index.js';
import { fmtInt, fmtPct } from '../../lib/format.js';
import { tokenHeading } from '../../lib/tokens.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { Fig } from '../common/Fig.js';
import { SourceTotals } from './SourceTotals.js';

export function Totals({ result }: { result: PreviewResult }) {
  const { total, exact, tokens } = result;
  const store = useWorkbenchApi();
  const exactRunning = useWorkbench((s) => s.preview.exactRunning);
  const filter = (fate: 'kept' | 'dropped' | 'outside') => store.getState().setDocFilter({ fate, droppedBy: undefined });
  const level = result.sample?.level;
  return (
    <>
      {result.sample && (
        <div className="sample-note" data-testid="sample-note">
          Estimated from a uniform sample of {fmtInt(result.sample.docs)} of {fmtInt(result.sample.of)} documents; {Math.round(result.sample.level * 100)}% intervals on hover.{' '}
          <button type="button" data-testid="exact-preview" disabled={exactRunning} onClick={() => void store.getState().runExactPreview()} title="count every indexed document for this recipe in a background job (listed under Runs; shown if the recipe is unchanged when it ends)">
            {exactRunning ? 'counting every document (see Runs)…' : 'Exact figures'}
          </button>
        </div>
      )}
      <table className="grid totals" data-testid="totals">
        <thead>
          <tr>
            <th />
            <th className="num">documents</th>
            <th className="num" title={tokens.note} data-testid="totals-tokens-heading" data-kind={tokens.kind}>
              {tokenHeading(tokens.kind)}
            </th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>indexed</td>
            <td className="num">
              <Fig value={total.docs} exact={exact} ci={total.ci?.docs} level={level} testId="total-docs" />
            </td>
            <td className="num">
              <Fig value={total.tokens} exact={exact} tokens={tokens} ci={total.ci?.tokens} level={level} compact testId="total-tokens" />
            </td>
          </tr>
          <tr className="kept clickable" onClick={() => filter('kept')} title="show kept documents">
            <td>kept</td>
            <td className="num">
              <Fig value={total.kept.docs} exact={exact} ci={total.kept.ci?.docs} level={level} testId="total-kept" /> <span className="pct">{fmtPct(total.kept.docs, total.docs)}</span>
            </td>
            <td className="num">
              <Fig value={total.kept.tokens} exact={exact} tokens={tokens} ci={total.kept.ci?.tokens} level={level} compact testId="total-kept-tokens" /> <span className="pct">{fmtPct(total.kept.tokens, total.tokens)}</span>
            </td>
          </tr>
          <tr className="dropped clickable" onClick={() => filter('dropped')} title="show dropped documents">
            <td>dropped</td>
            <td className="num">
              <Fig value={total.dropped.docs} exact={exact} ci={total.dropped.ci?.docs} level={level} testId="total-dropped" /> <span className="pct">{fmtPct(total.dropped.docs, total.docs)}</span>
            </td>
            <td className="num">
              <Fig value={total.dropped.tokens} exact={exact} tokens={tokens} ci={total.dropped.ci?.tokens} level={level} compact testId="total-dropped-tokens" /> <span className="pct">{fmtPct(total.dropped.tokens, total.tokens)}</span>
            </td>
          </tr>
          {result.outsideStreams > 0 && (
            <tr className="clickable" onClick={() => filter('outside')} title="documents no stream's globs match">
              <td>outside streams</td>
              <td className="num">
                <Fig value={result.outsideStreams} exact={exact} ci={result.outsideStreamsCi} level={level} testId="total-outside" />
              </td>
              <td />
            </tr>
          )}
        </tbody>
      </table>
      <SourceTotals result={result} />
    </>
  );
}
