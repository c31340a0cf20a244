// A Slurm job's array: one cell per task coloured by state, counts, cancel (scancel), and each failed task's inputs and log tail.
import type { SlurmTask } from '../../../../shared/contract/index.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

const name = (t: SlurmTask): string => (t.task === 'final' ? 'final step' : `${t.stage ? `${t.stage} ` : ''}task ${t.task}`);
/** Task numbers restart in each stage (MinHash's buckets), so keys and test ids carry the stage. */
const slot = (t: SlurmTask): string => `${t.stage ? `${t.stage}-` : ''}${t.task}`;

export function SlurmTasks() {
  const job = useWorkbench((s) => s.runs.jobs.find((j) => j.jobId === s.runs.selected));
  const store = useWorkbenchApi();
  const run = job?.slurm;
  if (!job || !run) return null;
  const bad = run.tasks.filter((t) => t.state === 'failed' || t.state === 'cancelled');
  const counts = (['done', 'running', 'pending', 'failed', 'cancelled', 'not submitted'] as const).filter((k) => run.counts[k] > 0).map((k) => `${run.counts[k]} ${k}`);
  return (
    <div className="slurm-tasks" data-testid="slurm-array" data-job-id={job.jobId} data-finished={run.finished}>
      <div className="toolbar">
        <b>Slurm</b>
        <span className="muted" title="the array job, then the final step">
          job {run.jobIds.join(', ') || '–'}
        </span>
        <span data-testid="slurm-counts">{counts.join(', ')}</span>
        <span className="muted path" title="completions, logs and scripts">
          {run.loggingDir}
        </span>
        <span className="spacer" />
        {job.state === 'running' && (
          <button className="danger" onClick={() => void store.getState().cancelJob(job.jobId)} data-testid="slurm-cancel" title="scancel the run's jobs; finished tasks keep their outputs">
            Cancel
          </button>
        )}
      </div>
      <div className="task-grid" role="list" aria-label="array tasks">
        {run.tasks.map((t) => (
          <span key={slot(t)} role="listitem" className={`task-cell state-${t.state.replace(' ', '-')}`} title={`${name(t)}: ${t.state} (${t.inputCount} input file${t.inputCount === 1 ? '' : 's'})`} data-testid={`slurm-task-${slot(t)}`} data-state={t.state}>
            {t.task === 'final' ? 'F' : t.stage ? `${t.stage[0]}${t.task}` : t.task}
          </span>
        ))}
      </div>
      {bad.map((t) => (
        <div key={slot(t)} className="task-failure" data-testid={`slurm-failed-${slot(t)}`}>
          <div>
            <b>{name(t)}</b> {t.state}
            {t.inputs && t.inputs.length > 0 && (
              <span className="path">
                {' '}
                — {t.inputs.join(', ')}
                {t.inputCount > t.inputs.length ? ` and ${t.inputCount - t.inputs.length} more` : ''}
              </span>
            )}
            {t.log && <span className="muted path"> · {t.log}</span>}
          </div>
          <pre className="task-tail">{(t.tail ?? []).join('\n') || '(empty log)'}</pre>
        </div>
      ))}
    </div>
  );
}
