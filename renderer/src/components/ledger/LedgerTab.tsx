// The Token ledger tab: how many tokens of each source training sees (raw → filtered → sampled → seen), as a chart and table, and the mix planner.
import { useState } from 'react';
import type { LedgerMeasure } from '../../lib/ledger.js';
import { tokenHeading } from '../../lib/tokens.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { LedgerChart } from './LedgerChart.js';
import { LedgerTable } from './LedgerTable.js';
import { Planner } from './Planner.js';

export function LedgerTab() {
  const store = useWorkbenchApi();
  const { result, error, running, epochs } = useWorkbench((s) => s.ledger);
  const stale = useWorkbench((s) => s.ledger.text !== s.preview.text);
  const [measure, setMeasure] = useState<LedgerMeasure>('tokens');
  return (
    <div className="ledger" data-testid="ledger" data-running={running} data-stale={stale}>
      <div className="toolbar">
        {result && (
          <span className={`badge ${result.tokens.kind === 'exact' ? 'ok' : 'warn'}`} title={result.tokens.note} data-testid="ledger-token-kind" data-kind={result.tokens.kind}>
            {result.tokens.kind === 'exact' ? `tokens: ${result.tokens.tokenizer ?? 'exact'}` : tokenHeading(result.tokens.kind)}
          </span>
        )}
        <label title="training epochs over what the mix writes: seen = sampled × repeat × epochs">
          epochs{' '}
          <input type="number" min={0.1} step={0.5} className="num-input short" value={epochs} onChange={(e) => store.getState().setEpochs(Number(e.target.value))} data-testid="ledger-epochs" />
        </label>
        <span className="seg">
          {(['tokens', 'docs', 'bytes'] as const).map((m) => (
            <button key={m} aria-pressed={measure === m} onClick={() => setMeasure(m)}>
              {m}
            </button>
          ))}
        </span>
        <span className="spacer" />
        <span className="muted">{running ? 'updating…' : result ? `${result.elapsedMs} ms` : ''}</span>
      </div>
      {error && <div className="error-box">{error.message}</div>}
      {result ? (
        <div className="ledger-body">
          <LedgerChart result={result} measure={measure} />
          <LedgerTable result={result} />
          <Planner />
        </div>
      ) : (
        !error && <p className="muted pad">{running ? 'computing the ledger…' : 'open a recipe to see its token ledger'}</p>
      )}
    </div>
  );
}
