// Public API of the attribute index: build it, then open a PreviewEngine on it (what the host calls).
import { buildIndex as build, type BuildOptions, type BuildResult } from './build/build.js';

export { indexPath, SCHEMA_VERSION } from './store/db.js';
export { PreviewEngine, type OpenOptions, type PreviewOptions } from './engine.js';
export type { BuildOptions, BuildProgress, BuildResult } from './build/build.js';

/** Builds or refreshes ROOT/.assay/index.sqlite (incremental; one transaction, so readers see old or new, never half). */
export async function buildIndex(root: string, opts?: BuildOptions): Promise<BuildResult> {
  return build(root, opts);
}
