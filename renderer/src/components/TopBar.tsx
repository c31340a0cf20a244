// The top bar: product, workspace, index status, the theme choice and the connection to the engine host.
import { fmtInt } from '../lib/format.js';
import type { ThemePref } from '../lib/theme.js';
import { useWorkbench } from '../store/index.js';

export function TopBar() {
  const info = useWorkbench((s) => s.workspace.info);
  const wsError = useWorkbench((s) => s.workspace.error);
  const status = useWorkbench((s) => s.connection.status);
  const running = useWorkbench((s) => s.runs.jobs.filter((j) => j.state === 'running').length);
  const setTab = useWorkbench((s) => s.setBottomTab);
  const themePref = useWorkbench((s) => s.ui.themePref);
  const theme = useWorkbench((s) => s.ui.theme);
  const setThemePref = useWorkbench((s) => s.setThemePref);
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
      <label className="theme-choice" title={`colour theme (now ${theme}); “system” follows the system’s light/dark setting`}>
        theme{' '}
        <select value={themePref} onChange={(e) => setThemePref(e.target.value as ThemePref)} data-testid="theme-select" data-theme={theme}>
          <option value="system">system</option>
          <option value="light">light</option>
          <option value="dark">dark</option>
        </select>
      </label>
      <span className={`conn conn-${status}`} data-testid="connection-status" data-status={status} title="connection to the engine host">
        {status === 'open' ? 'connected' : status === 'connecting' ? 'connecting…' : 'disconnected — retrying'}
      </span>
    </header>
  );
}
