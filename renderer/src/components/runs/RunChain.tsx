// The chain of runs behind a run's output: each parent manifest as a link to its own page, marked when it changed or is gone since.
import type { ChainEntry } from '../../../../shared/contract/index.js';
import { useWorkbenchApi } from '../../store/index.js';

const STATUS: Record<ChainEntry['status'], string> = {
  same: '',
  rerun: 'rerun since (same content)',
  changed: 'CHANGED since: this run used an earlier version',
  missing: 'missing',
  invalid: 'unreadable',
};

export function RunChain({ chain }: { chain: ChainEntry[] }) {
  const store = useWorkbenchApi();
  if (chain.length <= 1) return <p className="muted" data-testid="run-chain">no parent runs: it read raw inputs only</p>;
  return (
    <div className="run-chain" data-testid="run-chain">
      <div className="subhead">runs it consumed</div>
      <ul>
        {chain.slice(1).map((c, i) => (
          <li key={`${c.path}/${i}`} style={{ paddingLeft: (c.depth - 1) * 14 }} data-testid={`run-chain-${i}`} data-stage={c.stage} data-folder={c.folder} data-status={c.status}>
            <span className="badge">{c.stage}</span>{' '}
            {c.inside && c.status !== 'missing' && c.status !== 'invalid' ? (
              <button className="link" onClick={() => void store.getState().openRun(c.path, { follow: true, view: 'manifest' })} data-testid={`run-chain-${i}-link`} title={`open ${c.path}`}>
                {c.folder}
              </button>
            ) : (
              <span className="path" title={c.inside ? c.path : `${c.path} (outside the workspace)`}>{c.folder}</span>
            )}
            {c.ended && <span className="muted"> · {new Date(c.ended).toLocaleString()}</span>}
            {c.repeat && <span className="muted"> · listed above</span>}
            {c.status !== 'same' && <span className={`badge ${c.status === 'rerun' ? 'warn' : 'err'}`} title={c.error}> {STATUS[c.status]}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
