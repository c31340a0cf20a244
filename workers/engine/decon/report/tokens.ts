// Exact token counts for the report from an attribute index (`assay index --tokenizer`): per documents file, by line.
import { stat } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import type { TokenLookup } from './report.js';

type FileTokens = { bytes: number; counts: (number | null)[] } | null;

/** The part of PreviewEngine (workers/engine/index/engine.ts) the lookup reads, called directly or across the host's thread. */
export interface TokenSource {
  fileTokens(path: string): FileTokens | Promise<FileTokens>;
}

/**
 * Counts the index under `root` holds for a file it indexed at the size the file has now (else null: the report
 * estimates ⌈bytes/4⌉), by 1-based line; null for the documents it only estimated.
 */
export function indexTokenLookup(root: string, engine: TokenSource): TokenLookup {
  return async (file) => {
    const t = await engine.fileTokens(relative(resolve(root), resolve(file)).split(sep).join('/'));
    const size = await stat(file).then((st) => st.size, () => -1);
    return t && t.bytes === size ? (line) => t.counts[line - 1] ?? null : null;
  };
}
