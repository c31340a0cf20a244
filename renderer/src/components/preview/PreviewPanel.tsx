// The live preview: status and timing, totals, the comparison with another recipe, the per-rule table and the sequential-drop waterfall.
import { useWorkbench } from '../../store/index.js';
import { Compare } from './Compare.js';
import { RuleTable } from './RuleTable.js';
import { Totals } from './Totals.js';
import { Waterfall } from './Waterfall.js';

export function PreviewPanel() {
  const result = useWorkbench((s) => s.preview.result);
  const error = useWorkbench((s) => s.preview.error);
  const running = useWorkbench((s) => s.preview.running);
  const roundTrip = useWorkbench((s) => s.preview.roundTripMs);
  const stale = useWorkbench((s) => s.preview.text !== s.recipe.text);
  const revealLine = useWorkbench((s) => s.revealLine);

  return (
    <section className="panel preview" data-testid="preview">
      <header className="panel-head">
        <h2>Preview</h2>
        {result && (
          <span className={`badge ${result.exact ? 'ok' : 'warn'}`} data-testid="preview-exactness" data-exact={result.exact} title={result.exact ? 'every figure counts every indexed document' : 'figures are estimated from a sample (marked ≈)'}>
            {result.exact ? 'exact' : 'sampled'}
          </span>
        )}
        <span className="spacer" />
        <span className="muted" data-testid="preview-status" data-running={running} data-stale={stale} data-engine-ms={result?.elapsedMs} data-roundtrip-ms={roundTrip ?? undefined}>
          {running ? 'updating…' : result ? `${result.elapsedMs} ms engine · ${roundTrip ?? '–'} ms round trip` : ''}
        </span>
      </header>
      {error && (
        <div className="error-box" data-testid="preview-error">
          {error.line !== undefined ? (
            <button className="link" onClick={() => revealLine(error.line ?? 1)}>
              line {error.line}
              {error.column !== undefined ? `:${error.column}` : ''}
            </button>
          ) : null}{' '}
          {error.message}
          {result && <div className="muted">showing the last recipe that previewed</div>}
        </div>
      )}
      {result ? (
        <div className="panel-body">
          <Totals result={result} />
          <Compare />
          <RuleTable result={result} />
          <Waterfall result={result} />
        </div>
      ) : (
        !error && <p className="muted pad">{running ? 'computing the preview…' : 'open a recipe to preview it'}</p>
      )}
    </section>
  );
}
