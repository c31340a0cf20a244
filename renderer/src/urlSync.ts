// Keeps the URL hash in step with the shareable state, and follows a hash pasted into the address bar.
import { decodeUrlState, encodeUrlState } from './lib/urlState.js';
import { type WorkbenchStore, urlStateOf } from './store/create.js';
import { isDirty } from './store/recipe.js';

export function startUrlSync(store: WorkbenchStore, win: Window): () => void {
  let written = encodeUrlState(urlStateOf(store.getState()));
  const write = (): void => {
    const hash = encodeUrlState(urlStateOf(store.getState()));
    if (hash === written) return;
    written = hash;
    // replaceState: tuning a filter should not flood the back button with entries.
    win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}${hash ? `#${hash}` : ''}`);
  };
  write();
  const unsubscribe = store.subscribe(write);

  const onHashChange = (): void => {
    const hash = win.location.hash.replace(/^#/, '');
    if (hash === written) return;
    written = hash;
    const url = decodeUrlState(hash);
    const s = store.getState();
    if (url.recipe && url.recipe !== s.recipe.path && (!isDirty(s) || win.confirm('Discard unsaved recipe edits?'))) void s.openRecipe(url.recipe);
    s.setCompareTarget(url.compare ?? null);
    s.setDocFilter({ fate: undefined, droppedBy: undefined, redactedBy: undefined, bucket: undefined, source: undefined, search: undefined, change: undefined, group: undefined, ...url.filter });
    s.setSort(url.sort ?? null);
    s.setColumns(url.columns ?? []);
    if ((url.doc ?? null) !== s.inspector.id) void s.selectDocument(url.doc ?? null);
  };
  win.addEventListener('hashchange', onHashChange);
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}
