// Exact token counts for the report from an attribute index (`assay index --tokenizer`): per documents file, by line.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { TokenLookup } from './report.js';

/** The part of PreviewEngine (workers/engine/index/engine.ts) the lookup reads. */
export interface TokenSource {
  files(): { path: string; docs: number; bytes: number }[];
  tokenData(): { tokens: ArrayLike<number>; tokensExact(g: number): boolean };
}

/**
 * Counts the index holds for a file it indexed at the same size (else null: the report estimates). Files are in
 * the index's path order, so a file's first document is the sum of the documents before it.
 */
export function indexTokenLookup(root: string, engine: TokenSource): TokenLookup {
  const at = new Map<string, { start: number; docs: number; bytes: number }>();
  let start = 0;
  for (const f of engine.files()) {
    at.set(resolve(root, f.path), { start, docs: f.docs, bytes: f.bytes });
    start += f.docs;
  }
  const data = engine.tokenData();
  return async (file) => {
    const f = at.get(resolve(file));
    if (!f || (await stat(file)).size !== f.bytes) return null;
    return (line) => {
      const g = f.start + line - 1;
      return line >= 1 && line <= f.docs && data.tokensExact(g) ? (data.tokens[g] ?? null) : null;
    };
  };
}
