// One run in the history: state, a progress bar with rate and ETA, cancel, and the outcome (summary, outputs, error).
import type { JobInfo } from '../../../../shared/contract/index.js';
import { fmtCompact, fmtDuration, fmtInt } from '../../lib/format.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

const time = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleTimeString();
};

export function JobRow({ job }: { job: JobInfo }) {
  const progress = useWorkbench((s) => s.runs.progress[job.jobId] ?? job.progress);
  const selected = useWorkbench((s) => s.runs.selected === job.jobId);
  const latest = useWorkbench((s) => s.runs.latest === job.jobId);
  const store = useWorkbenchApi();
  const frac = progress && progress.total > 0 ? Math.min(1, progress.done / progress.total) : job.state === 'done' ? 1 : 0;
  const id = job.jobId;

  return (
    <tr className={`job-row${selected ? ' selected' : ''}`} onClick={() => store.getState().selectJob(id)} data-testid={`job-${id}`}>
      <td>
        <b>{job.kind}</b>
      </td>
      <td className="path" title={job.config}>
        {job.config ?? '–'}
      </td>
      <td>{time(job.startedAt)}</td>
      <td>
        <span className={`badge state-${job.state}`} data-testid={`job-${id}-state`} data-state={job.state}>
          {job.state}
        </span>
      </td>
      <td className="progress-cell" data-testid={`job-${id}-progress`} data-done={progress?.done} data-total={progress?.total}>
        <div
          className={`progress state-${job.state}`}
          role="progressbar"
          aria-valuenow={Math.round(frac * 100)}
          aria-valuemin={0}
          aria-valuemax={100}
          data-testid={latest ? 'job-latest-progress' : undefined}
          data-done={progress?.done}
          data-total={progress?.total}
        >
          <div className="bar" style={{ width: `${frac * 100}%` }} />
        </div>
        {progress && (
          <span className="muted progress-text">
            {fmtInt(progress.done)} / {fmtInt(progress.total)} {progress.unit}
            {job.state === 'running' && progress.rate > 0 ? ` · ${fmtCompact(progress.rate)} ${progress.unit}/s` : ''}
            {job.state === 'running' && progress.eta !== undefined ? ` · ETA ${fmtDuration(progress.eta)}` : ''}
          </span>
        )}
        {job.state === 'running' && (
          <button
            className="link danger"
            onClick={(e) => {
              e.stopPropagation();
              void store.getState().cancelJob(id);
            }}
            data-testid={`job-${id}-cancel`}
          >
            cancel
          </button>
        )}
      </td>
      <td className="outcome">
        {job.summary && <div data-testid={`job-${id}-summary`}>{job.summary}</div>}
        {job.outputs.length > 0 && <div className="muted">→ {job.outputs.join(', ')}</div>}
        {job.error && <div className="err">{job.error}</div>}
      </td>
    </tr>
  );
}
