// Which documents a query selects (ids, search, fate, redaction, bucket, source, ranges) and in what order: shared by table pages and exports.
import type { DocumentQuery, Fate } from '../../../../shared/contract/workspace.js';
import { AssayError } from '../../errors.js';
import type { EngineState, StreamAnalysis } from '../preview/analyze.js';
import { Bitset } from '../preview/bitset.js';
import type { Column } from '../store/column.js';
import type { IndexData } from '../store/data.js';
import type { DB } from '../store/db.js';
import { displayKey, DOC_SET, T } from '../store/tags.js';
import { lookupId } from './ids.js';
import { redactedSet, redactorsOf } from './redaction.js';
import { bucketOf } from './samples.js';

export type SelectQuery = Omit<DocumentQuery, 'offset' | 'limit'>;

/** The column a page filters, sorts or shows by an attribute key (`key` or `set/key`), or null if no set has it. */
export function keyColumn(data: IndexData, key: string): Column | null {
  const slash = key.indexOf('/');
  const k = data.keys
    .filter((x) => x.set !== DOC_SET && x.present > 0 && (displayKey(x.path) === key || (slash > 0 && x.set === key.slice(0, slash) && displayKey(x.path) === key.slice(slash + 1))))
    .sort((a, b) => b.present - a.present)[0];
  return k ? data.column(k.set, k.path) : null;
}

export const valueOf = (c: Column, g: number): number | null => {
  const t = c.tag[g];
  return t === T.NUM || t === T.SPANS ? (c.num[g] as number) : null;
};

/** A document's fate; `redaction` adds the rules that redacted a kept one (filters by fate need not know). */
export function fateOf(streams: readonly StreamAnalysis[] | null, g: number, redaction = false): { fate?: Fate; droppedBy?: number; redactedBy?: number[] } {
  if (streams === null) return {};
  const a = streams.find((s) => s.scope.docs.has(g));
  if (a === undefined) return { fate: 'outside' };
  if (a.kept.has(g)) {
    const by = redaction ? redactorsOf(a, g) : undefined;
    return by !== undefined ? { fate: 'kept', redactedBy: by } : { fate: 'kept' };
  }
  const by = a.rules.find((r) => a.sequential.get(r.index)?.has(g))?.index;
  return { fate: 'dropped', ...(by !== undefined ? { droppedBy: by } : {}) };
}

export interface Selection {
  total: number;
  /** Documents `offset … offset + limit` in the query's order. */
  slice(offset: number, limit: number): number[];
}

/** The documents a query selects; `search` answers full-text searches (the engine's search table). */
export function selectDocuments(db: DB, st: EngineState, streams: readonly StreamAnalysis[] | null, q: SelectQuery, search?: (q: string) => Bitset): Selection {
  const data = st.data;
  let set: Bitset;
  if (q.ids) {
    set = new Bitset(data.n);
    for (const id of q.ids) {
      try {
        set.set(lookupId(db, data, id));
      } catch (e) {
        if (!(e instanceof AssayError)) throw e;
      }
    }
  } else {
    set = new Bitset(data.n);
    set.words.fill(0xffffffff);
    for (let g = data.n; g < set.words.length * 32; g++) set.clear(g);
  }
  if (q.search !== undefined && q.search.trim() !== '') {
    if (search === undefined) throw new AssayError('CONFIG', 'search is not available here', { field: 'search' });
    set = set.and(search(q.search));
  }
  if (q.fate !== undefined || q.droppedBy !== undefined) {
    if (streams === null) throw new AssayError('CONFIG', 'filtering by fate needs recipeText', { field: 'fate' });
    const keep = new Bitset(data.n);
    set.forEach((g) => {
      const f = fateOf(streams, g);
      if ((q.fate === undefined || f.fate === q.fate) && (q.droppedBy === undefined || f.droppedBy === q.droppedBy)) keep.set(g);
    });
    set = keep;
  }
  if (q.redacted !== undefined || q.redactedBy !== undefined) {
    if (streams === null) throw new AssayError('CONFIG', 'filtering by redaction needs recipeText', { field: q.redacted !== undefined ? 'redacted' : 'redactedBy' });
    const redacted = redactedSet(streams, data.n);
    set = q.redacted === false ? set.andNot(redacted) : set.and(redacted);
    if (q.redactedBy !== undefined) {
      const rule = q.redactedBy;
      const keep = new Bitset(data.n);
      set.forEach((g) => {
        const a = streams.find((s) => s.scope.docs.has(g));
        if (a !== undefined && redactorsOf(a, g)?.includes(rule)) keep.set(g);
      });
      set = keep;
    }
  }
  if (q.bucket !== undefined) {
    if (streams === null) throw new AssayError('CONFIG', 'filtering by a preview bucket needs recipeText', { field: 'bucket' });
    set = set.and(bucketOf(streams, q.bucket.rule, q.bucket.bucket, data.n));
  }
  if (q.source !== undefined) {
    const code = data.sourceNames.indexOf(q.source);
    const keep = new Bitset(data.n);
    set.forEach((g) => data.source[g] === code && keep.set(g));
    set = keep;
  }
  for (const r of q.ranges ?? []) {
    const col = keyColumn(data, r.key);
    const keep = new Bitset(data.n);
    if (col) {
      set.forEach((g) => {
        const v = valueOf(col, g);
        if (v !== null && (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max)) keep.set(g);
      });
    }
    set = keep;
  }
  const total = set.count();
  if (q.sort === undefined) return { total, slice: (offset, limit) => set.slice(offset, limit) };
  {
    const order: number[] = [];
    if (q.sort.column === 'id') {
      for (const r of db.prepare('SELECT file, ord FROM docs ORDER BY id').raw().iterate() as IterableIterator<[number, number]>) {
        const f = data.byId.get(r[0]);
        const g = f === undefined ? -1 : data.docOf(f, r[1]);
        if (g >= 0 && set.has(g)) order.push(g);
      }
    } else {
      set.forEach((g) => order.push(g));
      const key = sortKey(data, q.sort.column);
      order.sort((a, b) => {
        const x = key(a);
        const y = key(b);
        if (x === y) return a - b;
        if (x === null) return 1;
        if (y === null) return -1;
        return x < y ? -1 : 1;
      });
    }
    if (q.sort.desc) order.reverse();
    return { total, slice: (offset, limit) => order.slice(offset, offset + limit) };
  }
}

function sortKey(data: IndexData, column: string): (g: number) => number | string | null {
  switch (column) {
    case 'bytes': return (g) => data.bytes[g] as number;
    case 'chars': return (g) => data.chars[g] as number;
    case 'tokens': return (g) => data.tokens[g] as number;
    case 'source': return (g) => data.sourceNames[data.source[g] as number] ?? '';
    case 'file': case 'line': return (g) => g;
    default: {
      const col = keyColumn(data, column);
      if (col === null) throw new AssayError('CONFIG', `cannot sort by '${column}': not a document column or attribute key`, { field: 'sort' });
      return (g) => valueOf(col, g);
    }
  }
}

