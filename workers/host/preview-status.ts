// The light facts of an open index (workspace.info's part): summarized once per snapshot, and staleness checked on the host's main thread.
import { discover, type FoundFile } from '../engine/index/build/discover.js';
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
 * Whether the snapshot is behind: a newer build committed, a document or attribute file the index read
 * changed size or mtime or is gone, or the dataset has a file a build would read now that it did not (a
 * documents file or attribute set added outside the app). Read from the index's tables and the folder as a
 * build lists it, so it needs no engine and never waits for one.
 */
export async function snapshotStale(root: string, generation: number): Promise<boolean> {
  let recorded: Map<string, { size: number; mtime: number }>;
  let db;
  try {
    db = openDatabase(indexPath(root), { readonly: true });
  } catch {
    return true;
  }
  try {
    if (Number(getMeta(db, 'generation') ?? '0') !== generation) return true;
    const rows = db.prepare('SELECT path, size, mtime FROM files UNION ALL SELECT path, size, mtime FROM attr_files').all() as { path: string; size: number; mtime: number }[];
    recorded = new Map(rows.map((r) => [r.path, r]));
  } catch {
    return true;
  } finally {
    db.close();
  }
  const found = await discover(root).catch(() => null);
  if (found === null) return true;
  const now = new Map<string, FoundFile>(found.documents.map((d) => [d.path, d]));
  for (const set of found.attributes.values()) for (const a of set.values()) now.set(a.path, a);
  if (now.size !== recorded.size) return true;
  for (const [path, r] of recorded) {
    const f = now.get(path);
    if (f === undefined || f.size !== r.size || f.mtimeMs !== r.mtime) return true;
  }
  return false;
}
