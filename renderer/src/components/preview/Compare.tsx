// "Compare with…" in the preview pane: the saved version, another workspace recipe or a past mix run's recipe, then what changed.
import { useMemo } from 'react';
import { decodeTarget, encodeTarget, pastRunOutputs, targetLabel } from '../../lib/compare.js';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { CompareGroups } from './CompareGroups.js';

const time = (iso: string) => {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
};

export function Compare() {
  const target = useWorkbench((s) => s.compare.target);
  const result = useWorkbench((s) => s.compare.result);
  const error = useWorkbench((s) => s.compare.error);
  const running = useWorkbench((s) => s.compare.running);
  const stale = useWorkbench((s) => s.compare.text !== s.preview.text);
  const recipes = useWorkbench((s) => s.workspace.info?.recipes);
  const path = useWorkbench((s) => s.recipe.path);
  const jobs = useWorkbench((s) => s.runs.jobs);
  const store = useWorkbenchApi();
  const runs = useMemo(() => pastRunOutputs(jobs), [jobs]);
  const others = (recipes ?? []).filter((r) => r !== path);
  const value = target ? encodeTarget(target) : '';
  // A target from a shared URL may not be listed (an older run, a recipe not found): still shown as chosen.
  const listed = value === '' || value === 'saved' || others.some((r) => `recipe:${r}` === value) || runs.some((r) => `run:${r.path}` === value);

  return (
    <div className="compare" data-testid="compare">
      <div className="subhead">
        <label htmlFor="compare-target">Compare with</label>
        <select
          id="compare-target"
          value={value}
          onChange={(e) => store.getState().setCompareTarget(decodeTarget(e.target.value))}
          data-testid="compare-target"
          title="list the documents whose fate differs between the recipe in the editor and another recipe"
        >
          <option value="">nothing</option>
          <option value="saved">the saved version</option>
          {others.length > 0 && (
            <optgroup label="another recipe">
              {others.map((r) => (
                <option key={r} value={`recipe:${r}`}>
                  {r}
                </option>
              ))}
            </optgroup>
          )}
          {runs.length > 0 && (
            <optgroup label="a past mix run's recipe">
              {runs.map((r) => (
                <option key={r.path} value={`run:${r.path}`}>
                  {r.path} · {time(r.startedAt)}
                </option>
              ))}
            </optgroup>
          )}
          {!listed && target && <option value={value}>{targetLabel(target)}</option>}
        </select>
        <span className="spacer" />
        {target && (
          <span className="muted" data-testid="compare-status" data-running={running} data-stale={stale}>
            {running ? 'comparing…' : result ? `${result.elapsedMs} ms` : ''}
          </span>
        )}
      </div>
      {target && error && (
        <div className="error-box" data-testid="compare-error" data-code={error.code}>
          cannot compare with {targetLabel(target)}: {error.message}
          {result && <div className="muted">showing the last comparison</div>}
        </div>
      )}
      {target && result && <CompareGroups result={result} />}
    </div>
  );
}
