// Public API of the attribute index: build it (attributes, token counts, then the texts for search), then open a PreviewEngine on it (what the host calls).
import { resolve } from 'node:path';
import { buildIndex as build, type BuildOptions, type BuildProgress, type BuildResult } from './build/build.js';
import { writeIndexManifest } from './build/manifest.js';
import { withIndexLock } from './lock.js';
import { buildSearch, type SearchBuildResult } from './search/build.js';
import { countTokens, type TokenCountResult } from './tokens/build.js';
import { openCountingTokenizer } from './tokens/tokenizer.js';

export { indexPath, SCHEMA_VERSION } from './store/db.js';
export { PreviewEngine, type OpenOptions, type PreviewOptions } from './engine.js';
export type { BuildOptions, BuildProgress, BuildResult } from './build/build.js';
export { buildSearch, type SearchBuildResult } from './search/build.js';
export { searchPath } from './search/store.js';
export { countTokens, type TokenCountResult } from './tokens/build.js';
export type { CountingTokenizer } from './tokens/tokenizer.js';

export type IndexPhase = 'index' | 'tokens' | 'search';

export interface IndexOptions extends Omit<BuildOptions, 'onProgress'> {
  /** false: only the attribute index (search stays as it was; searches fail until it is built). */
  search?: boolean;
  /**
   * Count every document's tokens with this tokenizer (a tokenizer.json, its folder, or the built-in `gpt2`),
   * exactly as `assay tokens` writes them with `eosTokenId`. Without it, an index that has counts keeps them up
   * to date with the tokenizer it records (so a re-index never silently turns exact figures into estimates).
   */
  tokenizer?: string;
  /** EOS appended to each document; default: the tokenizer's end-of-text token (`<|endoftext|>`, `</s>`, …). */
  eosTokenId?: number;
  /** Where a relative tokenizer path resolves (default: the process's working directory). */
  cwd?: string;
  /** Progress of each phase: `phase` says which (each phase starts again from 0 of its own total and unit). */
  onProgress?: (p: BuildProgress & { phase: IndexPhase }) => void;
}

export interface IndexResult extends BuildResult {
  /** The token-count phase, when there was a tokenizer to count with. */
  tokens?: TokenCountResult;
  /** The search phase, when it ran. */
  search?: SearchBuildResult;
}

/**
 * Builds or refreshes ROOT/.assay/index.sqlite (incremental; one transaction, so readers see old or new, never
 * half), counts tokens of the files not yet counted with the tokenizer (one file per commit), then brings
 * ROOT/.assay/search/ up to date with the indexed texts (one file per transaction, so an interrupted run
 * resumes where it stopped; unchanged files are skipped).
 */
export async function buildIndex(root: string, opts: IndexOptions = {}): Promise<IndexResult> {
  return withIndexLock(root, { signal: opts.signal, log: opts.log }, () => buildLocked(root, opts));
}

async function buildLocked(root: string, opts: IndexOptions): Promise<IndexResult> {
  const started = new Date();
  const { search, onProgress, tokenizer, eosTokenId, cwd, ...rest } = opts;
  // A tokenizer that cannot be loaded fails the command before any work.
  const counter = tokenizer === undefined ? undefined : await openCountingTokenizer(tokenizer, eosTokenId, cwd ?? process.cwd());
  const digests = new Map<string, string>();
  const r = await build(root, { ...rest, digests, ...(onProgress ? { onProgress: (p: BuildProgress) => onProgress({ ...p, phase: 'index' }) } : {}) });
  const common = { signal: opts.signal, log: opts.log, checkPath: opts.checkPath };
  const t = await countTokens(root, { ...common, processes: opts.processes, ...(counter ? { counter } : {}), onProgress: onProgress && ((p) => onProgress({ ...p, phase: 'tokens' })) });
  const s = search === false ? undefined : await buildSearch(root, { ...common, onProgress: onProgress && ((p) => onProgress({ ...p, phase: 'search' })) });
  // The run manifest, once the index (and the search table, when asked for) is complete.
  const config = { root: resolve(root), search: search !== false, processes: opts.processes ?? null, tokenizer: t?.tokenizer ?? null };
  await writeIndexManifest(root, { started, config, digests, search: s !== undefined, ...(opts.checkPath ? { checkPath: opts.checkPath } : {}) });
  return { ...r, ...(t ? { tokens: t } : {}), ...(s ? { search: s } : {}) };
}
