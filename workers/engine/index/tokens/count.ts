// Token counts of one documents file, each exactly what `assay tokens` writes for the document (0 for one it skips).
import { join } from 'node:path';
import { encodeText } from '../../tokenize/documents.js';
import type { TextTokenizer } from '../../tokenize/tokenizer/types.js';
import { forEachLine } from '../build/lines.js';

/** A documents file as the attribute index recorded it (its counts are valid for this hash only). */
export interface CountTask {
  root: string;
  /** `files.id` in the index. */
  file: number;
  path: string;
  hash: string;
  docs: number;
}

export interface FileCounts {
  file: number;
  hash: string;
  /** One per document in file order; null when the file no longer matches the index (`why` says how). */
  counts: Uint32Array | null;
  tokens: number;
  why?: string;
}

/** What a pool worker needs: the parent resolved the tokenizer already (a built-in name or an absolute path). */
export interface CountInit {
  name: string;
  eos: number;
}

/** Documents and uncompressed bytes counted since the last report. */
export interface CountProgress {
  docs: number;
  bytes: number;
}

const REPORT_EVERY = 2048;

/**
 * Tokens `assay tokens` writes for a document with this tokenizer and EOS (no BOS, no paragraph segmentation):
 * the text stripped as Python's `str.strip()`, a text empty after it skipped (0), EOS appended unless the
 * encoding already ends with it. A missing or non-string text counts 0: `assay tokens` refuses or skips it.
 */
export function documentTokens(tokenizer: TextTokenizer, eos: number, doc: unknown): number {
  const text = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as { text?: unknown }).text : undefined;
  if (typeof text !== 'string') return 0;
  return encodeText(tokenizer, text, { bos: null, eos, segmentBeforeTokenization: false })?.ids.length ?? 0;
}

export async function countFile(task: CountTask, tokenizer: TextTokenizer, eos: number, hooks: { signal?: AbortSignal | undefined; onProgress?: (p: CountProgress) => void } = {}): Promise<FileCounts> {
  const counts = new Uint32Array(task.docs);
  let ord = 0;
  let tokens = 0;
  let pending: CountProgress = { docs: 0, bytes: 0 };
  let bad: string | undefined;
  const hash = await forEachLine(
    join(task.root, task.path),
    (buf, start, end) => {
      if (ord >= task.docs) {
        bad = 'changed since it was indexed';
        return false;
      }
      let doc: unknown;
      try {
        doc = JSON.parse(buf.toString('utf8', start, end));
      } catch {
        bad = `line ${ord + 1} is not JSON`;
        return false;
      }
      const n = documentTokens(tokenizer, eos, doc);
      counts[ord++] = n;
      tokens += n;
      pending.docs++;
      pending.bytes += end - start + 1;
      if (pending.docs === REPORT_EVERY) {
        hooks.onProgress?.(pending);
        pending = { docs: 0, bytes: 0 };
      }
      return true;
    },
    hooks.signal,
  );
  if (pending.docs > 0) hooks.onProgress?.(pending);
  // The attribute index read this file as it was when hashed: counts of other bytes would be another file's.
  const why = bad ?? (hash === null ? 'cannot be read to its end' : hash !== task.hash || ord !== task.docs ? 'changed since it was indexed' : undefined);
  if (why !== undefined) return { file: task.file, hash: task.hash, counts: null, tokens: 0, why };
  return { file: task.file, hash: task.hash, counts, tokens };
}
