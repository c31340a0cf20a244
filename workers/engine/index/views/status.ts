// Whether the dataset changed since it was indexed, and the per-source summary of the index.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceInfo } from '../../../../shared/contract/workspace.js';
import type { IndexData } from '../store/data.js';

/** Compares every indexed file's size and mtime with the disk (cheap: one stat per file). */
export function fileStatus(root: string, data: IndexData): { changed: boolean; missing: string[] } {
  const missing: string[] = [];
  let changed = false;
  const check = (rel: string, size: number, mtime: number): void => {
    const st = statSync(join(root, rel), { throwIfNoEntry: false });
    if (st === undefined) missing.push(rel);
    else if (st.size !== size || st.mtimeMs !== mtime) changed = true;
  };
  for (const f of data.files) {
    check(f.path, f.size, f.mtime);
    for (const a of f.sets.values()) check(a.path, a.size, a.mtime);
  }
  return { changed: changed || missing.length > 0, missing };
}

export function sourcesOf(data: IndexData): SourceInfo[] {
  // Exact for a source only when every one of its documents has a tokenizer count (else some are ⌈bytes/4⌉).
  const out = data.sourceNames.map((source): SourceInfo => ({ source, docs: 0, files: 0, bytes: 0, tokens: 0, tokensExact: data.tokenizer !== null }));
  const filesOf = data.sourceNames.map(() => new Set<number>());
  for (const f of data.files) {
    for (let g = f.start; g < f.start + f.docs; g++) {
      const s = data.source[g] as number;
      const o = out[s] as SourceInfo;
      o.docs++;
      o.bytes += data.bytes[g] as number;
      o.tokens += data.tokens[g] as number;
      if (o.tokensExact && !data.tokensExact(g)) o.tokensExact = false;
      (filesOf[s] as Set<number>).add(f.id);
    }
  }
  out.forEach((o, s) => (o.files = (filesOf[s] as Set<number>).size));
  return out.filter((o) => o.docs > 0);
}
