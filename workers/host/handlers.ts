// The contract's methods, implemented: workspace and recipes here, preview/documents by the index engine, jobs by the job manager.
import { basename } from 'node:path';
import type { WorkspaceInfo } from '../../shared/contract/index.js';
import type { Handlers } from './dispatch.js';
import type { IndexService } from './index-service.js';
import type { JobManager } from './jobs/manager.js';
import { HostError } from './errors.js';
import { findRecipes, readRecipe, writeRecipe } from './recipes.js';
import { readSettings, writeSettings } from './settings.js';

export interface HandlerContext {
  root: string;
  index: IndexService;
  jobs: JobManager;
}

async function workspaceInfo({ root, index }: HandlerContext): Promise<WorkspaceInfo> {
  const recipes = findRecipes(root);
  // TODO(issue 11.3): configs recognised by schema (tag, dedupe, minhash, tokens too); recipes only for now.
  const base = { root, name: basename(root), recipes, configs: recipes.map((path) => ({ path, kinds: ['mix' as const] })) };
  if (!index.built) return { ...base, sources: [], files: [], attributes: [], index: { built: false, docs: 0, stale: false, schemaVersion: 0 } };
  // Answered on the host's main thread from the snapshot's summary: never queued behind a running preview.
  return { ...base, ...(await index.info()) };
}

/** TODO(issue 11): replaced by the real handler in this change set; never shipped. */
const notYet = (what: string) => (): never => {
  throw new HostError('NOT_FOUND', `${what} is not available yet`);
};

export function createHandlers(ctx: HandlerContext): Handlers {
  const { root, index, jobs } = ctx;
  return {
    'documents.export': notYet('documents.export'),
    'recipe.watch': notYet('recipe.watch'),
    'recipe.unwatch': notYet('recipe.unwatch'),
    'templates.list': notYet('templates.list'),
    'templates.render': notYet('templates.render'),
    'settings.get': () => readSettings(root),
    'settings.set': (p) => writeSettings(root, p),
    'jobs.check': (p) => jobs.check(p),
    'workspace.info': () => workspaceInfo(ctx),
    'recipe.read': (p) => readRecipe(root, p.path),
    'recipe.write': (p) => writeRecipe(root, p.path, p.text),
    'preview.run': (p) => index.engine().preview(p.recipeText, p.ids === undefined ? {} : { ids: p.ids }),
    'preview.samples': (p) => index.engine().samples(p.recipeText, p.rule, p.bucket, p.offset, p.limit),
    'preview.explain': (p) => index.engine().explain(p.recipeText, p.id),
    'preview.lint': (p) => index.engine().lint(p.recipeText),
    'attributes.histogram': (p) => index.engine().histogram(p.key, p.bins),
    'documents.page': (p) => index.engine().documentsPage(p),
    'documents.get': (p) => index.engine().document(p.id),
    'jobs.start': (p) => jobs.start(p),
    'jobs.cancel': (p) => jobs.cancel(p.jobId),
    'jobs.list': () => jobs.list(),
  };
}
