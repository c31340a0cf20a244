// The recipe editor: Monaco loaded lazily (first paint does not wait for it), a plain textarea if it cannot load.
import { useEffect, useRef, useState } from 'react';
import { useWorkbench, useWorkbenchApi } from '../../store/index.js';

type Status = 'loading' | 'ready' | 'failed';

export function RecipeEditor() {
  const store = useWorkbenchApi();
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('loading');
  const path = useWorkbench((s) => s.recipe.path);
  const recipes = useWorkbench((s) => s.workspace.info?.recipes.length);

  useEffect(() => {
    let disposed = false;
    let unmount = (): void => undefined;
    import('../../editor/mount.js')
      .then(({ mountEditor }) => {
        if (disposed || !host.current) return;
        unmount = mountEditor(host.current, store);
        setStatus('ready');
      })
      .catch((e: unknown) => {
        console.error('Monaco failed to load', e);
        if (!disposed) setStatus('failed');
      });
    return () => {
      disposed = true;
      unmount();
    };
  }, [store]);

  return (
    <div className="editor-wrap" data-testid="recipe-editor" data-ready={status === 'ready'} data-status={status}>
      <div ref={host} className="editor-host" hidden={status === 'failed'} />
      {status === 'failed' && <FallbackEditor />}
      {status === 'loading' && <div className="editor-loading muted">loading editor…</div>}
      {path === null && recipes !== undefined && (
        <div className="editor-empty muted" data-testid="editor-empty">
          {recipes === 0 ? 'No recipe yet: start from one of the starters in the Workspace panel (Recipes).' : 'No recipe open: choose one above or in the Workspace panel.'}
        </div>
      )}
    </div>
  );
}

function FallbackEditor() {
  const text = useWorkbench((s) => s.recipe.text);
  const setText = useWorkbench((s) => s.setRecipeText);
  return <textarea className="fallback-editor" spellCheck={false} value={text} onChange={(e) => setText(e.target.value)} aria-label="recipe" />;
}
