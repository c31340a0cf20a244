// Builds the workbench store from its slices, wires host events into it, and restores a shared URL's view.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { AssayApi } from '../../../shared/contract/index.js';
import type { UrlState } from '../lib/urlState.js';
import { createCompareSlice } from './compare.js';
import { createConnectionSlice } from './connection.js';
import { createDeconSlice } from './decon.js';
import { createDistributionsSlice } from './distributions.js';
import { createDocumentsSlice } from './documents.js';
import { createExecutorSlice } from './executor.js';
import { createInspectorSlice } from './inspector.js';
import { createLedgerSlice } from './ledger.js';
import { createPreviewSlice } from './preview.js';
import { createRecipeSlice } from './recipe.js';
import { createRunPageSlice } from './runPage.js';
import { createRunsSlice } from './runs.js';
import { createSourcesSlice } from './sources.js';
import type { StoreDeps, WorkbenchState } from './types.js';
import { createUiSlice } from './ui.js';
import { createWorkspaceSlice } from './workspace.js';

export type WorkbenchStore = StoreApi<WorkbenchState>;

export function createWorkbenchStore(api: AssayApi, opts: Partial<Omit<StoreDeps, 'api'>> = {}): WorkbenchStore {
  const deps: StoreDeps = { api, previewGapMs: 250, ...opts };
  return createStore<WorkbenchState>()((...a) => ({
    ...createConnectionSlice(deps)(...a),
    ...createUiSlice(deps)(...a),
    ...createWorkspaceSlice(deps)(...a),
    ...createRecipeSlice(deps)(...a),
    ...createPreviewSlice(deps)(...a),
    ...createCompareSlice(deps)(...a),
    ...createLedgerSlice(deps)(...a),
    ...createDistributionsSlice(deps)(...a),
    ...createDocumentsSlice(deps)(...a),
    ...createInspectorSlice(deps)(...a),
    ...createRunsSlice(deps)(...a),
    ...createExecutorSlice(deps)(...a),
    ...createRunPageSlice(deps)(...a),
    ...createDeconSlice(deps)(...a),
    ...createSourcesSlice(deps)(...a),
  }));
}

/** Routes the host's events into the store; returns the unsubscribe. */
export function wireEvents(store: WorkbenchStore, api: AssayApi): () => void {
  const s = store.getState;
  const offs = [
    api.on('job.state', (info) => s().onJobState(info)),
    api.on('job.progress', (p) => s().onJobProgress(p)),
    api.on('job.log', (l) => s().onJobLog(l)),
    api.on('job.tasks', (t) => s().onJobTasks(t)),
    api.on('file.changed', (e) => s().onFileChanged(e)),
    api.on('index.updated', () => {
      // New attributes or documents: every figure, page and histogram may have changed.
      void s().refreshWorkspace();
      s().invalidateHistograms();
      s().invalidateDocuments();
      void s().runPreview();
      const doc = s().inspector.id;
      if (doc !== null) void s().selectDocument(doc);
    }),
  ];
  return () => offs.forEach((off) => off());
}

/** The part of the state a shared URL carries. */
export function urlStateOf(st: WorkbenchState): UrlState {
  const u: UrlState = { filter: st.documents.filter };
  if (st.recipe.path) u.recipe = st.recipe.path;
  if (st.inspector.id) u.doc = st.inspector.id;
  if (st.documents.sort) u.sort = st.documents.sort;
  if (st.documents.columns.length > 0) u.columns = st.documents.columns;
  if (st.compare.target) u.compare = st.compare.target;
  return u;
}

/**
 * First load: the workspace, then the URL's recipe (or the workspace's first), its filters and document,
 * and the run history.
 */
export async function initWorkbench(store: WorkbenchStore, url: UrlState): Promise<void> {
  const s = store.getState;
  store.setState({ documents: { ...s().documents, filter: url.filter, sort: url.sort ?? null, columns: url.columns ?? [] } });
  await s().refreshWorkspace();
  void s().refreshJobs();
  const recipe = url.recipe ?? s().workspace.info?.recipes[0];
  if (recipe) await s().openRecipe(recipe);
  if (url.compare) s().setCompareTarget(url.compare);
  if (url.doc) void s().selectDocument(url.doc);
}
