// Document pages (filtered, sorted, with fates under a recipe) and one document's full detail.
import type { DocumentDetail, DocumentPage, DocumentQuery, DocumentRow, DocumentSpan, Fate } from '../../../../shared/contract/workspace.js';
import { AssayError } from '../../errors.js';
import { codePointOffsets } from '../../mix/spans.js';
import type { EngineState, StreamAnalysis } from '../preview/analyze.js';
import { Bitset } from '../preview/bitset.js';
import type { Column } from '../store/column.js';
import type { IndexData } from '../store/data.js';
import type { DB } from '../store/db.js';
import { displayKey, DOC_SET, T } from '../store/tags.js';
import { idsOf, lookupId } from './ids.js';
import { rowReason } from './reasons.js';
import { redactedSet, redactorsOf } from './redaction.js';
import { bucketOf } from './samples.js';

const SNIPPET = 200;

/** The column a page filters, sorts or shows by an attribute key (`key` or `set/key`), or null if no set has it. */
function keyColumn(data: IndexData, key: string): Column | null {
  const slash = key.indexOf('/');
  const k = data.keys
    .filter((x) => x.set !== DOC_SET && x.present > 0 && (displayKey(x.path) === key || (slash > 0 && x.set === key.slice(0, slash) && displayKey(x.path) === key.slice(slash + 1))))
    .sort((a, b) => b.present - a.present)[0];
  return k ? data.column(k.set, k.path) : null;
}

const valueOf = (c: Column, g: number): number | null => {
  const t = c.tag[g];
  return t === T.NUM || t === T.SPANS ? (c.num[g] as number) : null;
};

/** A document's fate; `redaction` adds the rules that redacted a kept one (filters by fate need not know). */
function fateOf(streams: readonly StreamAnalysis[] | null, g: number, redaction = false): { fate?: Fate; droppedBy?: number; redactedBy?: number[] } {
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

export function documentsPage(db: DB, st: EngineState, streams: readonly StreamAnalysis[] | null, q: DocumentQuery, search?: (q: string) => Bitset): DocumentPage {
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
  let page: number[];
  if (q.sort === undefined) page = set.slice(q.offset, q.limit);
  else {
    const order: number[] = [];
    if (q.sort.column === 'id') {
      for (const r of db.prepare('SELECT file, ord FROM docs ORDER BY id').raw().iterate() as IterableIterator<[number, number]>) {
        const f = data.byId.get(r[0]);
        if (f !== undefined && set.has(f.start + r[1])) order.push(f.start + r[1]);
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
    page = order.slice(q.offset, q.offset + q.limit);
  }
  const ids = idsOf(db, data, page);
  const rows = page.map((g, i): DocumentRow => {
    const f = data.fileOf(g);
    const values: DocumentRow['values'] = {};
    for (const c of q.columns ?? []) {
      const col = keyColumn(data, c);
      values[c] = col ? valueOf(col, g) : null;
    }
    const text = st.mat.raw(g).text;
    const fate = fateOf(streams, g, true);
    const a = fate.droppedBy !== undefined ? streams?.find((x) => x.scope.docs.has(g)) : undefined;
    const reason = a !== undefined && fate.droppedBy !== undefined ? rowReason(a, fate.droppedBy, st, g) : undefined;
    return {
      id: ids[i] as string,
      source: data.sourceNames[data.source[g] as number] ?? '',
      file: f.path,
      line: g - f.start + 1,
      bytes: data.bytes[g] as number,
      chars: data.chars[g] as number,
      tokens: data.tokens[g] as number,
      // ⌈bytes/4⌉ from the index, not a tokenizer count.
      tokensExact: false,
      ...fate,
      ...(reason !== undefined ? { reason } : {}),
      values,
      snippet: typeof text === 'string' ? Array.from(text.slice(0, SNIPPET * 2)).slice(0, SNIPPET).join('') : '',
    };
  });
  return { total, offset: q.offset, rows };
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

export function documentDetail(db: DB, st: EngineState, g: number): DocumentDetail {
  const data = st.data;
  const f = data.fileOf(g);
  const raw = st.mat.raw(g);
  const text = typeof raw.text === 'string' ? raw.text : '';
  const units = codePointOffsets(text);
  const u = (cp: number): number => units[Math.min(cp, units.length - 1)] ?? text.length;
  const spans: DocumentSpan[] = [];
  const values: Record<string, unknown> = {};
  const visit = (set: string, attrs: unknown): void => {
    if (attrs === null || typeof attrs !== 'object' || Array.isArray(attrs)) return;
    const walk = (prefix: string, obj: Record<string, unknown>, depth: number): void => {
      for (const [k, v] of Object.entries(obj)) {
        const key = prefix ? `${prefix}.${k}` : k;
        if (Array.isArray(v)) {
          const list = v.filter((s): s is [number, number, number] => Array.isArray(s) && s.length >= 3 && typeof s[0] === 'number' && typeof s[1] === 'number' && typeof s[2] === 'number');
          for (const s of list) spans.push({ set, key, start: u(s[0]), end: u(s[1]), score: s[2] });
          if (list.length === 1 && list[0]) values[key] = list[0][2];
        } else if (v !== null && typeof v === 'object' && depth < 2) walk(key, v as Record<string, unknown>, depth + 1);
        else values[key] = v;
      }
    };
    walk('', attrs as Record<string, unknown>, 0);
  };
  visit('(document)', raw.attributes);
  for (const set of f.sets.keys()) visit(set, st.mat.attributes(g, set));
  const meta = raw.metadata;
  return {
    id: idsOf(db, data, [g])[0] as string,
    source: typeof raw.source === 'string' ? raw.source : '',
    file: f.path,
    line: g - f.start + 1,
    text,
    metadata: meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? (meta as Record<string, unknown>) : {},
    spans,
    values,
  };
}
