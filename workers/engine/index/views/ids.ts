// Document ids ↔ document numbers through the index's docs table (ids are not held in memory).
import { AssayError } from '../../errors.js';
import type { Bitset } from '../preview/bitset.js';
import type { IndexData } from '../store/data.js';
import type { DB } from '../store/db.js';

/** Ids of the given documents, in the order given (a bitset: ascending). */
export function idsOf(db: DB, data: IndexData, docs: Bitset | readonly number[]): string[] {
  const list = Array.isArray(docs) ? (docs as readonly number[]) : collect(docs as Bitset);
  if (list.length > 20_000) {
    // Scanning the table once beats a lookup per document for large sets.
    const want = new Set(list);
    const out = new Map<number, string>();
    for (const r of db.prepare('SELECT file, ord, id FROM docs').raw().iterate() as IterableIterator<[number, number, string]>) {
      const f = data.byId.get(r[0]);
      const g = f === undefined ? -1 : data.docOf(f, r[1]);
      if (g >= 0 && want.has(g)) out.set(g, r[2]);
    }
    return list.map((g) => out.get(g) ?? '');
  }
  const get = db.prepare('SELECT id FROM docs WHERE file = ? AND ord = ?').pluck();
  return list.map((g) => {
    const f = data.fileOf(g);
    return (get.get(f.id, data.ordOf(f, g)) as string | undefined) ?? '';
  });
}

function collect(b: Bitset): number[] {
  const out: number[] = [];
  b.forEach((g) => out.push(g));
  return out;
}

/** The document number of an id (the first one in path order if the id repeats). */
export function lookupId(db: DB, data: IndexData, id: string): number {
  const rows = db.prepare('SELECT file, ord FROM docs WHERE id = ?').all(id) as { file: number; ord: number }[];
  const gs = rows.flatMap((r) => {
    const f = data.byId.get(r.file);
    const g = f === undefined ? -1 : data.docOf(f, r.ord);
    return g < 0 ? [] : [g];
  });
  if (gs.length === 0) throw new AssayError('CONFIG', `no document with id ${JSON.stringify(id)} in the index`, { field: 'id' });
  return Math.min(...gs);
}
