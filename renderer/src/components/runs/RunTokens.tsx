// A finished mix run's token ledger on its page: per source raw → filtered → sampled → seen, each stage saying whether it was counted or estimated.
import { STAGES } from '../../lib/ledger.js';
import { useWorkbench } from '../../store/index.js';
import { LedgerTable } from '../ledger/LedgerTable.js';

export function RunTokens() {
  const { result, loading, error } = useWorkbench((s) => s.runPage.tokens);
  if (error) return <div className="error-box" data-testid="run-tokens-error">{error}</div>;
  if (!result) return <p className="muted pad">{loading ? 'reading the run’s ledger…' : ''}</p>;
  return (
    <div className="run-tokens pad" data-testid="run-tokens" data-output={result.output} data-tokens-run={result.tokensRun ?? undefined}>
      <LedgerTable result={result} id="run-tokens" exact={result.tokenSources} />
      <ul className="plain-list muted">
        {STAGES.map((st) => (
          <li key={st} data-testid={`run-tokens-source-${st}`} data-exact={result.tokenSources[st].exact}>
            {st}: {result.tokenSources[st].exact ? 'counted' : 'estimated'} — {result.tokenSources[st].from}
          </li>
        ))}
        <li>UTF-8 bytes are of the input texts; document counts are exact.</li>
        {result.notes.map((n) => (
          <li key={n}>{n}</li>
        ))}
      </ul>
    </div>
  );
}
