// Public API of the attribute index: build it (attributes, then the texts for search), then open a PreviewEngine on it (what the host calls).
import { resolve } from 'node:path';
import { buildIndex as build, type BuildOptions, type BuildProgress, type BuildResult } from './build/build.js';
import { writeIndexManifest } from './build/manifest.js';
import { buildSearch, type SearchBuildResult } from './search/build.js';

export { indexPath, SCHEMA_VERSION } from './store/db.js';
export { PreviewEngine, type OpenOptions, type PreviewOptions } from './engine.js';
export type { BuildOptions, BuildProgress, BuildResult } from './build/build.js';
export { buildSearch, type SearchBuildResult } from './search/build.js';
export { searchPath } from './search/store.js';

export interface IndexOptions extends Omit<BuildOptions, 'onProgress'> {
  /** false: only the attribute index (search stays as it was; searches fail until it is built). */
  search?: boolean;
  /** Progress of each phase: `phase` says which (the search phase starts again from 0 of its own total). */
  onProgress?: (p: BuildProgress & { phase: 'index' | 'search' }) => void;
}

export interface IndexResult extends BuildResult {
  /** The search phase, when it ran. */
  search?: SearchBuildResult;
}

/**
 * Builds or refreshes ROOT/.assay/index.sqlite (incremental; one transaction, so readers see old or new, never
 * half), then brings ROOT/.assay/search/ up to date with the indexed texts (one file per transaction, so an
 * interrupted run resumes where it stopped; unchanged files are skipped).
 */
export async function buildIndex(root: string, opts: IndexOptions = {}): Promise<IndexResult> {
  const started = new Date();
  const { search, onProgress, ...rest } = opts;
  const digests = new Map<string, string>();
  const r = await build(root, { ...rest, digests, ...(onProgress ? { onProgress: (p: BuildProgress) => onProgress({ ...p, phase: 'index' }) } : {}) });
  const s =
    search === false ? undefined : await buildSearch(root, { signal: opts.signal, log: opts.log, checkPath: opts.checkPath, onProgress: onProgress && ((p) => onProgress({ ...p, phase: 'search' })) });
  // The run manifest, once the index (and the search table, when asked for) is complete.
  const config = { root: resolve(root), search: search !== false, processes: opts.processes ?? null };
  await writeIndexManifest(root, { started, config, digests, search: s !== undefined, ...(opts.checkPath ? { checkPath: opts.checkPath } : {}) });
  return s === undefined ? r : { ...r, search: s };
}
