// Exact figures of a sampled preview as a job: the whole index previewed in a job process, the result kept on disk for the app.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PreviewResult } from '../../shared/contract/index.js';
import { PreviewEngine } from '../engine/index/index.js';
import { setRuleProgress } from '../engine/index/rule-progress.js';
import { getMeta, indexPath, openDatabase } from '../engine/index/store/db.js';
import { writeFileAtomic } from '../engine/io/index.js';
import { confiner } from './paths.js';

interface Stored {
  v: 1;
  recipeSha: string;
  /** The index build the figures were counted on (indexStamp). */
  index: string;
  result: PreviewResult;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Where the exact figures of `recipeText` are kept: one file per recipe text, replaced by each run. */
export const exactPreviewPath = (root: string, recipeText: string): string => join(root, '.assay', 'previews', `${sha256(recipeText)}.json`);

/** Which build of the index this is: figures counted on another build are stale. */
function indexStamp(root: string): string {
  const db = openDatabase(indexPath(root), { readonly: true });
  try {
    return `${getMeta(db, 'generation') ?? '0'}:${getMeta(db, 'built_at') ?? ''}`;
  } finally {
    db.close();
  }
}

export interface ExactPreviewProgress {
  done: number;
  total: number;
  unit: string;
}

/**
 * Previews `recipeText` on every indexed document (no sample, whatever the index's size) in this process and
 * keeps the result beside the index, reporting rules evaluated as it goes (columns load as rules need them). The stamp is read before the engine opens: should a build commit in
 * between, the result is marked with the older build and so never shown as current.
 */
export async function computeExactPreview(root: string, recipeText: string, recipePath: string, onProgress: (p: ExactPreviewProgress) => void): Promise<PreviewResult> {
  const stamp = indexStamp(root);
  // Document texts (read for span replacements) only from files whose real path is inside the workspace, as in the host.
  const engine = PreviewEngine.open(root, { checkPath: confiner(root) });
  let result: PreviewResult;
  setRuleProgress((done, total) => onProgress({ done, total, unit: 'rules' }));
  try {
    result = engine.preview(recipeText, { recipePath });
  } finally {
    setRuleProgress(null);
    engine.close();
  }
  const stored: Stored = { v: 1, recipeSha: sha256(recipeText), index: stamp, result };
  await writeFileAtomic(exactPreviewPath(root, recipeText), JSON.stringify(stored));
  return result;
}

/** The exact figures a finished job kept for `recipeText`, or null when there are none for the index as it is now. */
export async function readExactPreview(root: string, recipeText: string): Promise<PreviewResult | null> {
  let stored: Stored;
  try {
    stored = JSON.parse(await readFile(exactPreviewPath(root, recipeText), 'utf8')) as Stored;
  } catch {
    return null;
  }
  if (stored.v !== 1 || stored.recipeSha !== sha256(recipeText) || stored.index !== indexStamp(root)) return null;
  return stored.result;
}
