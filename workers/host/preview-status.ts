// The light facts of an open index (workspace.info's part): summarized once per snapshot, and staleness checked on the host's main thread.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { getMeta, indexPath, openDatabase } from '../engine/index/store/db.js';
import type { PreviewEngineLike } from './index-service.js';
import type { EngineSummary } from './preview-protocol.js';

/** The generation the index on disk holds now (-1 when it cannot be read). */
export function diskGeneration(root: string): number {
  try {
    const db = openDatabase(indexPath(root), { readonly: true });
    try {
      return Number(getMeta(db, 'generation') ?? '0');
    } finally {
      db.close();
    }
  } catch {
    return -1;
  }
}

/** Everything workspace.info shows of the engine's snapshot (the catalogue loads every column once: done here, not per call). */
export function summarize(engine: PreviewEngineLike, root: string): EngineSummary {
  const status = engine.status();
  return { sources: engine.sources(), files: engine.files(), attributes: engine.catalogue(), status, generation: diskGeneration(root) };
}

/**
 * Whether the snapshot is behind: a newer build committed, or a document or attribute file the index
 * read changed size or mtime or is gone (the engine's own isStale, read from the index's tables so it
 * needs no engine and never waits for one).
 */
export function snapshotStale(root: string, generation: number): boolean {
  let db;
  try {
    db = openDatabase(indexPath(root), { readonly: true });
  } catch {
    return true;
  }
  try {
    if (Number(getMeta(db, 'generation') ?? '0') !== generation) return true;
    const rows = db.prepare('SELECT path, size, mtime FROM files UNION ALL SELECT path, size, mtime FROM attr_files').all() as { path: string; size: number; mtime: number }[];
    return rows.some((r) => {
      const st = statSync(join(root, r.path), { throwIfNoEntry: false });
      return st === undefined || st.size !== r.size || st.mtimeMs !== r.mtime;
    });
  } catch {
    return true;
  } finally {
    db.close();
  }
}
