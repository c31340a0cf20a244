// The index stage of a job: the engine's incremental buildIndex, with a one-line summary for the run history.
import { buildIndex } from '../../engine/index/index.js';
import { confiner } from '../paths.js';
import type { IndexBuilder } from './execute.js';

export const buildIndexForJob: IndexBuilder = async (root, { signal, onProgress, log }) => {
  // The app indexes only what lies inside its workspace: a symlink leading out is refused, naming it.
  const r = await buildIndex(root, { signal, onProgress, log, checkPath: confiner(root, { batch: true }) });
  for (const p of r.problems ?? []) log(`warning: ${p}`);
  const n = (x: number): string => x.toLocaleString('en-US');
  return {
    docs: r.docs,
    summary:
      `indexed ${n(r.docs)} documents from ${n(r.files)} file(s) (${n(r.skippedFiles)} unchanged) with ${r.attributeSets} attribute set(s) in ${(r.ms / 1000).toFixed(1)} s` +
      // An index that counts tokens keeps counting new files with its recorded tokenizer (see buildIndex).
      (r.tokens ? `; tokens: ${n(r.tokens.docs)} documents counted with ${r.tokens.tokenizer.name} in ${(r.tokens.ms / 1000).toFixed(1)} s` : '') +
      (r.search ? `; search: ${n(r.search.docs)} texts from ${n(r.search.files - r.search.skippedFiles)} file(s) in ${(r.search.ms / 1000).toFixed(1)} s` : ''),
  };
};
