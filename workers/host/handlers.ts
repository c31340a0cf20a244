// The contract's methods, implemented: workspace and recipes here, preview/documents by the index engine, jobs by the job manager.
import { basename } from 'node:path';
import type { LintIssue, Params, RecipeCompareResult, WorkspaceInfo } from '../../shared/contract/index.js';
import { resolveAgainst } from './compare-against.js';
import { hostDeconItems, hostDeconReport } from './decon.js';
import type { Handlers } from './dispatch.js';
import { readExactPreview } from './exact-preview.js';
import { exportDocuments } from './export.js';
import { readExecutorSettings, writeExecutorSettings } from './executor-settings.js';
import type { IndexService } from './index-service.js';
import type { JobManager } from './jobs/manager.js';
import { outsideWorkspace } from './lint-paths.js';
import { findConfigs, readRecipe, writeRecipe } from './recipes.js';
import { runLedger, runLocate, runManifest } from './run-page.js';
import { readSettings, writeSettings } from './settings.js';
import { listSources } from './sources.js';
import { templateList, templateRender } from './templates.js';
import type { FileWatcher } from './watch.js';

export interface HandlerContext {
  root: string;
  index: IndexService;
  jobs: JobManager;
  /** Watched files (`recipe.watch`): changes reach the app as `file.changed` events. */
  watcher: FileWatcher;
  /** What `${oc.env:…}` may read in this workspace (for recognising configs and linting paths as jobs would). */
  env: () => NodeJS.ProcessEnv;
}

async function workspaceInfo({ root, index, env }: HandlerContext): Promise<WorkspaceInfo> {
  // Configs are recognised by each job kind's schema, wherever they sit (not by folder).
  const found = findConfigs(root, env());
  const recipes = found.filter((c) => c.recipe).map((c) => c.path);
  const configs = found.filter((c) => c.kinds.length > 0).map(({ path, kinds }) => ({ path, kinds }));
  const base = { root, name: basename(root), recipes, configs };
  if (!index.built) return { ...base, sources: [], files: [], attributes: [], index: { built: false, docs: 0, stale: false, schemaVersion: 0 } };
  // Answered on the host's main thread from the snapshot's summary: never queued behind a running preview.
  return { ...base, ...(await index.info()) };
}

/** The index's lint (when the workspace has an index) plus paths a job from the app would refuse, flagged while typing. */
async function lint({ root, index, env }: HandlerContext, recipeText: string): Promise<LintIssue[]> {
  const paths = outsideWorkspace(root, recipeText, env());
  if (!index.built) return paths;
  return [...(await index.engine().lint(recipeText)), ...paths];
}

/** The edited recipe against its baseline (read here, on the host's thread), diffed where the engine runs. */
async function diff({ root, index }: HandlerContext, p: Params<'preview.diff'>): Promise<RecipeCompareResult> {
  const engine = index.engine();
  const baseline = await resolveAgainst(root, p.against);
  const d = await engine.diff(baseline.text, p.recipeText, { oldPath: baseline.label, samples: p.samples ?? 20 });
  return { ...d, baseline };
}

export function createHandlers(ctx: HandlerContext): Handlers {
  const { root, index, jobs, watcher } = ctx;
  return {
    'documents.export': (p) => exportDocuments(root, index, p),
    'recipe.watch': (p) => watcher.watch(p.path),
    'recipe.unwatch': (p) => watcher.unwatch(p.path),
    'templates.list': () => templateList(),
    'templates.render': (p) => templateRender(root, index, p.id),
    'settings.get': () => readSettings(root),
    'settings.set': (p) => writeSettings(root, p),
    'executor.get': () => readExecutorSettings(root),
    'executor.set': (p) => writeExecutorSettings(root, p),
    'jobs.check': (p) => jobs.check(p),
    'workspace.info': () => workspaceInfo(ctx),
    'recipe.read': (p) => readRecipe(root, p.path),
    'recipe.write': (p) => writeRecipe(root, p.path, p.text, { expect: p.expect, create: p.create }),
    'preview.run': (p) => index.engine().preview(p.recipeText, { ...(p.ids !== undefined && { ids: p.ids }), ...(p.exact !== undefined && { exact: p.exact }) }),
    'preview.exact': (p) => readExactPreview(root, p.recipeText),
    'preview.samples': (p) => index.engine().samples(p.recipeText, p.rule, p.bucket, p.offset, p.limit),
    'preview.explain': (p) => index.engine().explain(p.recipeText, p.id),
    'preview.diff': (p) => diff(ctx, p),
    'preview.lint': (p) => lint(ctx, p.recipeText),
    'ledger.predict': (p) => index.engine().tokenLedger(p.recipeText, p.epochs === undefined ? {} : { epochs: p.epochs }),
    'ledger.plan': (p) => index.engine().plan(p.recipeText, p.request),
    'attributes.histogram': (p) => index.engine().histogram(p.key, p.bins),
    'documents.page': (p) => (p.compare !== undefined ? index.engine().comparePage(p) : index.engine().documentsPage(p)),
    'documents.get': (p) => index.engine().document(p.id, p.search === undefined ? {} : { search: p.search }),
    'jobs.start': (p) => jobs.start(p),
    'jobs.cancel': (p) => jobs.cancel(p.jobId),
    'sources.list': () => listSources(root),
    'jobs.list': () => jobs.list(),
    'runs.manifest': (p) => runManifest(root, p.path),
    'runs.locate': (p) => runLocate(root, p.path, p.query, p.limit ?? 100),
    'runs.ledger': (p) => runLedger(root, p.path, p.epochs),
    'decon.report': (p) => hostDeconReport(root, index, p),
    'decon.items': (p) => hostDeconItems(root, p),
  };
}
