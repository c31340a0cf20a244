// Workspace panel: sources, files, index status, recipe files (or starters when there are none), the catalogue, settings.
import { fmtBytes, fmtCompact, fmtInt } from '../../lib/format.js';
import { DEFAULT_TOKEN_NOTE, rowTokensHeading } from '../../lib/tokens.js';
import { isDirty, useWorkbench, useWorkbenchApi } from '../../store/index.js';
import { WorkspaceSettingsButton } from '../settings/WorkspaceSettings.js';
import { AttributeCatalogue } from './AttributeCatalogue.js';
import { SourcesButton } from './SourcesDialog.js';
import { StarterRecipes } from './StarterRecipes.js';

export function WorkspacePanel() {
  const info = useWorkbench((s) => s.workspace.info);
  const open = useWorkbench((s) => s.ui.showWorkspace);
  const toggle = useWorkbench((s) => s.toggleWorkspace);
  const currentPath = useWorkbench((s) => s.recipe.path);
  const store = useWorkbenchApi();

  const openRecipe = (path: string) => {
    if (isDirty(store.getState()) && !window.confirm('Discard unsaved recipe edits?')) return;
    void store.getState().openRecipe(path);
  };

  const rebuild = () => {
    void store.getState().startJob({ kind: 'index' });
    store.getState().setBottomTab('runs');
  };

  return (
    <section className="panel workspace" data-testid="workspace-panel">
      <header className="panel-head">
        <button className="disclosure" aria-expanded={open} onClick={toggle}>
          {open ? '▾' : '▸'} Workspace
        </button>
        {info && (
          <span className="muted">
            {fmtInt(info.sources.reduce((a, s) => a + s.docs, 0))} docs · {info.files.length} files · {info.attributes.length} attributes
          </span>
        )}
        <span className="spacer" />
        <SourcesButton />
        <WorkspaceSettingsButton />
      </header>
      {open && info && (
        <div className="panel-body">
          <div className="index-line" data-testid="workspace-index">
            {info.index.built ? (
              <span>
                index: {fmtInt(info.index.docs)} docs{info.index.builtAt ? `, built ${new Date(info.index.builtAt).toLocaleString()}` : ''}
                {info.index.stale && <span className="badge warn">stale: files changed since</span>}
              </span>
            ) : (
              <span className="warn-text">No attribute index yet: previews and the document table need one.</span>
            )}
            <button onClick={rebuild} data-testid="index-rebuild" title="index documents and attributes (unchanged files are skipped)">
              {info.index.built ? 'Re-index' : 'Build index'}
            </button>
          </div>
          <table className="grid compact" data-testid="sources-table">
            <thead>
              <tr>
                <th>source</th>
                <th className="num">docs</th>
                <th className="num">files</th>
                <th className="num">size</th>
                <th className="num" title={DEFAULT_TOKEN_NOTE} data-testid="sources-tokens-heading">
                  {rowTokensHeading(info.sources)}
                </th>
              </tr>
            </thead>
            <tbody>
              {info.sources.map((s) => (
                <tr key={s.source}>
                  <td>{s.source || '(none)'}</td>
                  <td className="num">{fmtInt(s.docs)}</td>
                  <td className="num">{s.files}</td>
                  <td className="num">{fmtBytes(s.bytes)}</td>
                  <td className="num" title={s.tokensExact ? `${fmtInt(s.tokens)} tokens (tokenizer count)` : `≈ ${fmtInt(s.tokens)} tokens — ${DEFAULT_TOKEN_NOTE}`}>
                    {s.tokensExact ? '' : '≈'}
                    {fmtCompact(s.tokens)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <details>
            <summary>Files ({info.files.length})</summary>
            <ul className="file-list">
              {info.files.map((f) => (
                <li key={f.path} title={f.path}>
                  <span className="path">{f.path}</span>
                  <span className="muted">
                    {fmtInt(f.docs)} docs · {fmtBytes(f.bytes)}
                  </span>
                </li>
              ))}
            </ul>
          </details>
          <details open>
            <summary>Recipes ({info.recipes.length})</summary>
            {info.recipes.length === 0 && <StarterRecipes testId="starter" />}
            <ul className="file-list" data-testid="recipe-list">
              {info.recipes.map((r) => (
                <li key={r}>
                  <button className={`link${r === currentPath ? ' current' : ''}`} onClick={() => openRecipe(r)} data-testid={`recipe-open-${r}`}>
                    {r}
                  </button>
                </li>
              ))}
            </ul>
          </details>
          <AttributeCatalogue attributes={info.attributes} />
        </div>
      )}
    </section>
  );
}
