// A run's page under the Runs tab: its log, its manifest (with the chain of runs it consumed), the search of its ledger and its token ledger.
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import type { RunView } from '../../store/runPage.js';
import { JobLog } from './JobLog.js';
import { LedgerSearch } from './LedgerSearch.js';
import { RunManifest } from './RunManifest.js';
import { RunTokens } from './RunTokens.js';
import { SlurmTasks } from './SlurmTasks.js';

const VIEWS: { view: RunView; label: string; help: string }[] = [
  { view: 'log', label: 'log', help: 'the selected job’s log' },
  { view: 'manifest', label: 'manifest', help: 'what the run read and wrote, with hashes, and the runs it consumed (.assay/manifest.json)' },
  { view: 'ledger', label: 'ledger', help: 'where each input document of a mix went, and why (.assay/ledger.sqlite)' },
  { view: 'tokens', label: 'tokens', help: 'a mix output’s tokens per source raw → filtered → sampled → seen (assay ledger OUTPUT_DIR)' },
];

export function RunDetail() {
  const view = useWorkbench((s) => s.runPage.view);
  const path = useWorkbench((s) => s.runPage.path);
  const trail = useWorkbench((s) => s.runPage.trail);
  const selected = useWorkbench((s) => s.runs.selected);
  const outputs = useWorkbench((s) => s.runs.jobs.find((j) => j.jobId === s.runs.selected)?.outputs);
  const store = useWorkbenchApi();
  const s = () => store.getState();
  return (
    <div className="run-detail" data-testid="run-detail" data-view={view} data-path={path ?? undefined}>
      <nav className="toolbar run-views">
        {VIEWS.map((v) => (
          <button key={v.view} className={`link${view === v.view ? ' current' : ''}`} onClick={() => s().setRunView(v.view)} title={v.help} data-testid={`run-view-${v.view}`}>
            {v.label}
          </button>
        ))}
        {view !== 'log' && (outputs?.length ?? 0) > 1 && (
          <select value={path ?? ''} onChange={(e) => void s().openRun(e.target.value)} data-testid="run-output" aria-label="output folder">
            {outputs?.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        )}
        <span className="spacer" />
        {view !== 'log' && trail.length > 0 && (
          <button className="link" onClick={() => s().runBack()} data-testid="run-back" title={`back to ${trail.at(-1) ?? ''}`}>
            ← back
          </button>
        )}
      </nav>
      {view === 'log' ? (
        <>
          <SlurmTasks />
          <JobLog />
        </>
      ) : path === null ? <p className="muted pad">{selected ? 'this run wrote no output folder' : 'Select a finished run to see its manifest and ledger.'}</p> : view === 'manifest' ? <RunManifest /> : view === 'tokens' ? <RunTokens /> : <LedgerSearch />}
    </div>
  );
}
