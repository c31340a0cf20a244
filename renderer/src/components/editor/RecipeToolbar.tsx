// Above the editor: the open file, its unsaved state, open / save / save as / reload from disk, and overwriting a file changed on disk.
import { isDirty, useWorkbench, useWorkbenchApi } from '../../store/index.js';

export function RecipeToolbar() {
  const path = useWorkbench((s) => s.recipe.path);
  const dirty = useWorkbench(isDirty);
  const saving = useWorkbench((s) => s.recipe.saving);
  const loading = useWorkbench((s) => s.recipe.loading);
  const error = useWorkbench((s) => s.recipe.error);
  const diskChanged = useWorkbench((s) => s.recipe.diskChanged);
  const diskGone = useWorkbench((s) => s.recipe.diskGone);
  const recipes = useWorkbench((s) => s.workspace.info?.recipes);
  const store = useWorkbenchApi();
  const s = () => store.getState();

  const confirmDiscard = () => !isDirty(s()) || window.confirm('Discard unsaved recipe edits?');
  const open = (p: string) => {
    if (p && confirmDiscard()) void s().openRecipe(p);
  };
  const saveAs = async () => {
    const p = window.prompt('Save the recipe as (path inside the workspace):', path ?? 'configs/recipe.yaml');
    if (!p || (await s().saveRecipe(p))) return;
    const taken = s().recipe.conflict;
    if (taken !== null && taken !== s().recipe.path && window.confirm(`${taken} already exists. Replace it with the editor's text?`)) void s().saveRecipe(p, undefined, true);
  };

  return (
    <div className="toolbar" data-testid="recipe-toolbar">
      <select value={path ?? ''} onChange={(e) => open(e.target.value)} data-testid="recipe-select" aria-label="open recipe">
        {path === null && <option value="">open a recipe…</option>}
        {[...new Set([...(recipes ?? []), ...(path ? [path] : [])])].map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      <span className={`dirty${dirty ? ' on' : ''}`} data-testid="recipe-dirty" data-dirty={dirty} title={dirty ? 'unsaved edits: the file on disk differs' : 'saved: the editor matches the file on disk'}>
        {dirty ? '● modified' : 'saved'}
      </span>
      <button onClick={() => void s().saveRecipe()} disabled={!dirty || saving || path === null} data-testid="recipe-save" title="Ctrl/⌘+S">
        {saving ? 'saving…' : 'Save'}
      </button>
      <button onClick={() => void saveAs()} data-testid="recipe-save-as">
        Save as…
      </button>
      <button onClick={() => path && confirmDiscard() && void s().openRecipe(path)} disabled={path === null || loading} title="read the file from disk again" data-testid="recipe-reload">
        Reload
      </button>
      {diskChanged && (
        <span className="warn-text" data-testid="recipe-disk-changed" title="Reload takes the file's version; Overwrite replaces it with yours">
          the file changed on disk
        </span>
      )}
      {diskChanged && (
        <button onClick={() => void s().saveRecipe(undefined, undefined, true)} disabled={saving || path === null} data-testid="recipe-overwrite" title="write the editor's text over the file's newer version on disk">
          Overwrite
        </button>
      )}
      {diskGone && (
        <span className="warn-text" data-testid="recipe-disk-gone" title="the editor keeps its text; Save writes the file again">
          the file was deleted on disk
        </span>
      )}
      {error && (
        <span className="err" data-testid="recipe-error">
          {error}
        </span>
      )}
    </div>
  );
}
