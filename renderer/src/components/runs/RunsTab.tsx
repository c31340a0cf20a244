// Runs: launch tag / dedupe / minhash / mix / tokens / index jobs, follow their progress, cancel, read logs and history.
import { useState } from 'react';
import { jobKind, type JobKind } from '../../../../shared/contract/index.js';
import { isDirty, useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { JobLog } from './JobLog.js';
import { JobRow } from './JobRow.js';

export function RunsTab() {
  const jobs = useWorkbench((s) => s.runs.jobs);
  const latest = useWorkbench((s) => s.runs.latest);
  const starting = useWorkbench((s) => s.runs.starting);
  const error = useWorkbench((s) => s.runs.error);
  const recipes = useWorkbench((s) => s.workspace.info?.recipes);
  const path = useWorkbench((s) => s.recipe.path);
  const dirty = useWorkbench(isDirty);
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const [kind, setKind] = useState<JobKind>('mix');
  const [config, setConfig] = useState<string>('');
  const configPath = config || path || '';
  const latestJob = jobs.find((j) => j.jobId === latest);

  const start = () => {
    if (kind === 'index') void s().startJob({ kind });
    else if (configPath === path) void s().runRecipe(kind);
    else if (configPath) void s().startJob({ kind, configPath });
  };

  return (
    <div className="runs" data-testid="runs">
      <div className="toolbar">
        <button className="primary" onClick={() => void s().runRecipe('mix')} disabled={!path || starting} data-testid="run-mix" title="run the mixer on the open recipe (saved first if modified)">
          {dirty ? 'Save & run mix' : 'Run mix'}
        </button>
        <span className="sep" />
        <select value={kind} onChange={(e) => setKind(e.target.value as JobKind)} data-testid="run-kind" aria-label="job kind">
          {jobKind.options.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        {kind !== 'index' && (
          <select value={configPath} onChange={(e) => setConfig(e.target.value)} data-testid="run-config" aria-label="config file">
            {!configPath && <option value="">choose a config…</option>}
            {[...new Set([...(path ? [path] : []), ...(recipes ?? [])])].map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
        <button onClick={start} disabled={starting || (kind !== 'index' && !configPath)} data-testid="run-start">
          Start {kind}
        </button>
        <span className="spacer" />
        {latestJob && (
          <span className={`badge state-${latestJob.state}`} data-testid="job-latest-state" data-state={latestJob.state} data-job-id={latestJob.jobId}>
            last: {latestJob.kind} {latestJob.state}
          </span>
        )}
        <button className="link" onClick={() => void s().refreshJobs()}>
          refresh
        </button>
      </div>
      {error && (
        <div className="error-box" data-testid="runs-error">
          {error}
        </div>
      )}
      <div className="runs-body">
        <table className="grid jobs" data-testid="job-history">
          <thead>
            <tr>
              <th>job</th>
              <th>config</th>
              <th>started</th>
              <th>state</th>
              <th>progress</th>
              <th>outcome</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((j) => (
              <JobRow key={j.jobId} job={j} />
            ))}
            {jobs.length === 0 && (
              <tr>
                <td colSpan={6} className="muted">
                  no runs yet
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <JobLog />
      </div>
    </div>
  );
}
