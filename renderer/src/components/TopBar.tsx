// The top bar: product, workspace, index status and the connection to the engine host.
import { fmtInt } from '../lib/format.js';
import { useWorkbench } from '../store/index.js';

export function TopBar() {
  const info = useWorkbench((s) => s.workspace.info);
  const wsError = useWorkbench((s) => s.workspace.error);
  const status = useWorkbench((s) => s.connection.status);
  const running = useWorkbench((s) => s.runs.jobs.filter((j) => j.state === 'running').length);
  const setTab = useWorkbench((s) => s.setBottomTab);
  return (
    <header className="topbar">
      <span className="brand">Assay</span>
      <span className="ws-name" title={info?.root}>
        {info ? info.name : wsError ? <span className="err">{wsError}</span> : 'loading workspace…'}
      </span>
      {info && (
        <span className={`badge ${info.index.built && !info.index.stale ? 'ok' : 'warn'}`} data-testid="index-status" data-built={info.index.built} data-stale={info.index.stale}>
          {!info.index.built ? 'index not built' : `${fmtInt(info.index.docs)} docs indexed${info.index.stale ? ' · stale' : ''}`}
        </span>
      )}
      <span className="spacer" />
      {running > 0 && (
        <button className="link" onClick={() => setTab('runs')}>
          {running} run{running > 1 ? 's' : ''} in progress
        </button>
      )}
      <span className={`conn conn-${status}`} data-testid="connection-status" data-status={status} title="connection to the engine host">
        {status === 'open' ? 'connected' : status === 'connecting' ? 'connecting…' : 'disconnected — retrying'}
      </span>
    </header>
  );
}
