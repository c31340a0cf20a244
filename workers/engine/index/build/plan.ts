// Decides what a (re-)index must read: new or changed documents files whole, changed attribute files alone.
import { join } from 'node:path';
import type { Json } from '../../mix/filters/types.js';
import type { DB } from '../store/db.js';
import type { Discovery, FoundFile } from './discover.js';
import { hashFile, readError, type ExtractTask } from './extract.js';

export interface IndexedFile {
  id: number;
  size: number;
  mtime: number;
  hash: string;
}

export interface BuildPlan {
  tasks: ExtractTask[];
  /** Input bytes the tasks read (progress total). */
  bytes: number;
  /** Documents files whose rows go (no longer on disk). */
  removedFiles: number[];
  /** Attribute files that no longer exist. */
  removedAttributes: { set: string; file: number }[];
  /** Unchanged content with a new mtime: only the stored mtime is updated. */
  touchedFiles: { id: number; mtimeMs: number }[];
  touchedAttributes: { set: string; file: number; mtimeMs: number }[];
  /** Documents files not re-read. */
  unchangedFiles: number;
}

type Verdict = 'same' | 'touched' | 'changed';

async function compare(root: string, found: FoundFile, old: IndexedFile | undefined): Promise<Verdict> {
  if (old === undefined || old.size !== found.size) return 'changed';
  if (old.mtime === found.mtimeMs) return 'same';
  const file = join(root, found.path);
  const hash = await hashFile(file).catch((e: unknown) => {
    throw readError(e, file);
  });
  return hash === old.hash ? 'touched' : 'changed';
}

export async function planBuild(root: string, db: DB, found: Discovery): Promise<BuildPlan> {
  const files = new Map<string, IndexedFile>();
  for (const r of db.prepare('SELECT id, path, size, mtime, hash FROM files').all() as (IndexedFile & { path: string })[]) files.set(r.path, r);
  const attrs = new Map<string, IndexedFile & { set_name: string; file: number }>();
  for (const r of db.prepare('SELECT set_name, file, size, mtime, hash FROM attr_files').all() as (IndexedFile & { set_name: string; file: number })[]) {
    attrs.set(`${r.set_name}\u0000${r.file}`, { ...r, id: r.file });
  }
  const plan: BuildPlan = { tasks: [], bytes: 0, removedFiles: [], removedAttributes: [], touchedFiles: [], touchedAttributes: [], unchangedFiles: 0 };
  const present = new Set(found.documents.map((d) => d.path));
  for (const [path, f] of files) if (!present.has(path)) plan.removedFiles.push(f.id);
  const idsOf = db.prepare('SELECT id, id_json FROM docs WHERE file = ? ORDER BY ord');

  for (const doc of found.documents) {
    const old = files.get(doc.path);
    const verdict = await compare(root, doc, old);
    const setsHere = found.sets.filter((s) => found.attributes.get(s)?.has(doc.path));
    if (verdict === 'changed' || old === undefined) {
      plan.tasks.push({ root, file: doc.path, docs: true, sets: setsHere });
      plan.bytes += doc.size + setsHere.reduce((a, s) => a + (found.attributes.get(s)?.get(doc.path)?.size ?? 0), 0);
      continue;
    }
    plan.unchangedFiles++;
    if (verdict === 'touched') plan.touchedFiles.push({ id: old.id, mtimeMs: doc.mtimeMs });
    const stale: string[] = [];
    for (const set of found.sets) {
      const a = found.attributes.get(set)?.get(doc.path);
      const was = attrs.get(`${set}\u0000${old.id}`);
      if (a === undefined) {
        if (was !== undefined) plan.removedAttributes.push({ set, file: old.id });
        continue;
      }
      const v = await compare(root, a, was);
      if (v === 'changed') {
        stale.push(set);
        plan.bytes += a.size;
      } else if (v === 'touched') plan.touchedAttributes.push({ set, file: old.id, mtimeMs: a.mtimeMs });
    }
    for (const [key, was] of attrs) {
      if (was.file === old.id && !found.sets.includes(key.split('\u0000')[0] as string)) plan.removedAttributes.push({ set: was.set_name, file: old.id });
    }
    if (stale.length > 0) {
      const ids = (idsOf.all(old.id) as { id: string; id_json: number }[]).map((r) => (r.id_json ? (JSON.parse(r.id) as Json) : r.id));
      plan.tasks.push({ root, file: doc.path, docs: false, ids, sets: stale });
    }
  }
  return plan;
}
