// Runs: launch tag / dedupe / minhash / mix / tokens / decon / index jobs with the configs of each kind, follow their progress, cancel; history and a run's page.
import { useMemo, useState } from 'react';
import { jobKind } from '../../../../shared/contract/index.js';
import { configsFor, selectedConfig } from '../../store/runs.js';
import { isDirty, useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { NewFromTemplate } from '../workspace/NewFromTemplate.js';
import { ExecutorPicker } from './ExecutorPicker.js';
import { JobRow } from './JobRow.js';
import { RunDetail } from './RunDetail.js';

export function RunsTab() {
  const jobs = useWorkbench((s) => s.runs.jobs);
  const latest = useWorkbench((s) => s.runs.latest);
  const starting = useWorkbench((s) => s.runs.starting);
  const error = useWorkbench((s) => s.runs.error);
  const kind = useWorkbench((s) => s.runs.kind);
  const info = useWorkbench((s) => s.workspace.info);
  const path = useWorkbench((s) => s.recipe.path);
  const configPath = useWorkbench(selectedConfig);
  const dirty = useWorkbench(isDirty);
  const store = useWorkbenchApi();
  const s = () => store.getState();
  const [creating, setCreating] = useState(false);
  const configs = useMemo(() => configsFor(info, path, kind), [info, path, kind]);
  const latestJob = jobs.find((j) => j.jobId === latest);
  const refresh = () => {
    void s().refreshJobs();
    void s().refreshWorkspace();
    void s().loadTemplates();
  };

  return (
    <div className="runs" data-testid="runs">
      <div className="toolbar">
        <button className="primary" onClick={() => void s().runRecipe('mix')} disabled={!path || starting} data-testid="run-mix" title="check the open recipe, save it if modified and it passes, then run the mixer on it">
          {dirty ? 'Save & run mix' : 'Run mix'}
        </button>
        <span className="sep" />
        <select value={kind} onChange={(e) => s().setRunKind(e.target.value as typeof kind)} data-testid="run-kind" aria-label="job kind">
          {/* Imports and WARC extraction start from the Sources dialog (Workspace panel), which picks the files. */}
          {jobKind.options.filter((k) => k !== 'import' && k !== 'warc' && k !== 'preview').map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        {kind !== 'index' && (
          <select value={configPath ?? ''} onChange={(e) => s().setRunConfig(e.target.value || null)} data-testid="run-config" aria-label="config file" data-count={configs.length}>
            {configPath === null && <option value="">no {kind} config: create one →</option>}
            {configs.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
        )}
        <button onClick={() => void s().startSelected()} disabled={starting || (kind !== 'index' && !configPath)} data-testid="run-start">
          Start {kind}
        </button>
        {kind !== 'index' && (
          <button className="link" onClick={() => setCreating((c) => !c)} aria-expanded={creating} data-testid="run-new-config">
            new {kind} config…
          </button>
        )}
        <span className="spacer" />
        {latestJob && (
          <span className={`badge state-${latestJob.state}`} data-testid="job-latest-state" data-state={latestJob.state} data-job-id={latestJob.jobId}>
            last: {latestJob.kind} {latestJob.state}
          </span>
        )}
        <button className="link" onClick={refresh} data-testid="runs-refresh" title="reload the run history, the workspace's configs and the templates">
          refresh
        </button>
      </div>
      <ExecutorPicker />
      {creating && kind !== 'index' && (
        <div className="toolbar">
          <NewFromTemplate
            key={kind}
            kind={kind}
            testId="run-template"
            onCreated={(p) => {
              s().setRunConfig(p);
              setCreating(false);
            }}
            onCancel={() => setCreating(false)}
          />
        </div>
      )}
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
        <RunDetail />
      </div>
    </div>
  );
}
