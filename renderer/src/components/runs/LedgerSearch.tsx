// Search a run's removal ledger: by id, url, text hash or a substring of the text, each match with its fate, rule, input line and output line.
import type { LocatedDocument } from '../../../../shared/contract/index.js';
import { fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import type { LedgerKey } from '../../store/runPage.js';

const KEYS: { key: LedgerKey; label: string; placeholder: string }[] = [
  { key: 'id', label: 'id', placeholder: 'document id' },
  { key: 'url', label: 'url', placeholder: 'metadata.url' },
  { key: 'textHash', label: 'text sha256', placeholder: '64 hex digits' },
  { key: 'contains', label: 'text contains', placeholder: 'a substring (scans the inputs)' },
];

const where = (d: LocatedDocument) => (d.shard ? `${d.shard.file}:${d.shard.line}` : '–');

export function LedgerSearch() {
  const ledger = useWorkbench((s) => s.runPage.ledger);
  const hasLedger = useWorkbench((s) => s.runPage.manifest?.ledger);
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const { result } = ledger;
  const placeholder = KEYS.find((k) => k.key === ledger.key)?.placeholder;
  return (
    <div className="ledger-search" data-testid="ledger-search">
      {hasLedger === false && <p className="muted">this run’s folder has no removal ledger (only mix runs write one, and tokens runs over a mix)</p>}
      <form className="toolbar" onSubmit={(e) => { e.preventDefault(); void s().searchLedger(); }}>
        <select value={ledger.key} onChange={(e) => s().setLedgerInput(e.target.value as LedgerKey, ledger.text)} data-testid="ledger-search-key" aria-label="search by">
          {KEYS.map((k) => <option key={k.key} value={k.key}>{k.label}</option>)}
        </select>
        <input value={ledger.text} onChange={(e) => s().setLedgerInput(ledger.key, e.target.value)} placeholder={placeholder} data-testid="ledger-search-input" aria-label="ledger search" />
        <button type="submit" disabled={ledger.running || ledger.text.trim() === ''} data-testid="ledger-search-go">{ledger.running ? 'searching…' : 'search'}</button>
      </form>
      {ledger.error && <div className="error-box" data-testid="ledger-search-error">{ledger.error}</div>}
      {result && result.matches.length === 0 && (
        <p className="muted" data-testid="ledger-none">{result.ledgers.length === 0 ? 'no ledger here to search' : `no document matches in ${result.ledgers.join(', ')}`}</p>
      )}
      {result && result.matches.length > 0 && (
        <table className="grid" data-testid="ledger-results" data-count={result.matches.length}>
          <thead>
            <tr><th>id</th><th>stream</th><th>fate</th><th>input</th><th>output</th><th>tokens</th></tr>
          </thead>
          <tbody>
            {result.matches.map((d, i) => (
              <tr key={`${d.ledger}:${d.input.file}:${d.input.line}:${d.stream}`} data-testid={`ledger-match-${i}`} data-id={d.id} data-fate={d.fate.kind} data-exclude={d.fate.exclude ?? undefined}>
                <td className="path" title={`${d.id}\nsha256 ${d.sha256}${d.url ? `\n${d.url}` : ''}`}>{d.id}</td>
                <td>{d.stream}</td>
                <td className={`fate-${d.fate.kind === 'kept' ? 'kept' : 'dropped'}`} title={d.fate.rule ?? undefined} data-testid={`ledger-match-${i}-fate`}>
                  {d.fate.message}
                  {d.replacedChars > 0 ? ` · ${fmtInt(d.replacedChars)} chars replaced` : ''}
                </td>
                <td className="path" title={`${d.input.file}:${d.input.line}`}>{d.input.file}:{d.input.line}</td>
                <td className="path" title={where(d)}>{where(d)}</td>
                <td>{d.tokens.map((t) => `${t.npy} [${fmtInt(t.start)}, ${fmtInt(t.end)})`).join('; ') || '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {result?.truncated && <p className="muted">showing the first {fmtInt(result.matches.length)} matches</p>}
    </div>
  );
}
