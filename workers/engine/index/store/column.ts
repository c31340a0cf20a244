// A dense column of one (attribute set, key path) over every indexed document, loaded on first use.
import type { DB } from './db.js';
import type { Interner } from './interner.js';
import { unpack } from './pack.js';
import { T } from './tags.js';

export interface Spans {
  /** offsets[g]..offsets[g+1] index starts/ends/scores for document g (SPANS documents only). */
  offsets: Float64Array;
  starts: Uint32Array;
  ends: Uint32Array;
  scores: Float64Array;
}

export interface Column {
  set: string;
  path: string[];
  tag: Uint8Array;
  /** NUM: the number; SPANS: the first span's score; STR: an Interner code (-1: not coded). */
  num: Float64Array;
  /**
   * Array length for SPANS / ODDARR / EMPTY; null when every SPANS value has exactly one span and no
   * value is ODDARR (document-level attributes: the common case, 4 bytes per document saved).
   */
  count: Uint32Array | null;
  present: number;
  spans(): Spans;
}

export interface FileRange {
  id: number;
  start: number;
  docs: number;
}

/** Reads one column's per-file chunks from the index and scatters them into dense arrays. */
export function loadColumn(db: DB, set: string, path: string[], files: ReadonlyMap<number, FileRange>, n: number, interner: Interner): Column {
  const key = JSON.stringify(path);
  const rows = db.prepare('SELECT file, data, dict FROM columns WHERE set_name = ? AND path = ?').all(set, key) as { file: number; data: Buffer; dict: string }[];
  const tag = new Uint8Array(n);
  const num = new Float64Array(n);
  const chunks: { start: number; ords: Uint32Array; counts: Uint32Array }[] = [];
  let present = 0;
  let unit = true;
  for (const r of rows) {
    const range = files.get(r.file);
    if (range === undefined) continue;
    const p = unpack(r.data);
    const ords = p.u32('ords');
    const tags = p.u8('tags');
    const nums = p.f64('nums');
    const counts = p.u32('counts');
    const dict = (JSON.parse(r.dict) as string[]).map((s) => interner.code(s));
    for (let j = 0; j < ords.length; j++) {
      const g = range.start + (ords[j] as number);
      const t = tags[j] as number;
      tag[g] = t;
      num[g] = t === T.STR ? (nums[j] === -1 ? -1 : (dict[nums[j] as number] ?? -1)) : (nums[j] as number);
      if (t === T.ODDARR || (t === T.SPANS && counts[j] !== 1)) unit = false;
    }
    chunks.push({ start: range.start, ords, counts });
    present += ords.length;
  }
  let count: Uint32Array | null = null;
  if (!unit) {
    count = new Uint32Array(n);
    for (const c of chunks) for (let j = 0; j < c.ords.length; j++) count[c.start + (c.ords[j] as number)] = c.counts[j] as number;
  }
  let spans: Spans | null = null;
  return {
    set,
    path,
    tag,
    num,
    count,
    present,
    spans: () => (spans ??= loadSpans(db, set, key, files, n, tag, count)),
  };
}

function loadSpans(db: DB, set: string, key: string, files: ReadonlyMap<number, FileRange>, n: number, tag: Uint8Array, count: Uint32Array | null): Spans {
  const offsets = new Float64Array(n + 1);
  for (let g = 0; g < n; g++) offsets[g + 1] = (offsets[g] as number) + (tag[g] === T.SPANS ? (count === null ? 1 : (count[g] as number)) : 0);
  const total = offsets[n] as number;
  const starts = new Uint32Array(total);
  const ends = new Uint32Array(total);
  const scores = new Float64Array(total);
  const rows = db.prepare('SELECT file, data FROM columns WHERE set_name = ? AND path = ?').all(set, key) as { file: number; data: Buffer }[];
  for (const r of rows) {
    const range = files.get(r.file);
    if (range === undefined) continue;
    const p = unpack(r.data);
    const ords = p.u32('ords');
    const tags = p.u8('tags');
    const counts = p.u32('counts');
    const s = p.u32('starts');
    const e = p.u32('ends');
    const c = p.f64('scores');
    let k = 0;
    for (let j = 0; j < ords.length; j++) {
      if (tags[j] !== T.SPANS) continue;
      const g = range.start + (ords[j] as number);
      const at = offsets[g] as number;
      const m = counts[j] as number;
      starts.set(s.subarray(k, k + m), at);
      ends.set(e.subarray(k, k + m), at);
      scores.set(c.subarray(k, k + m), at);
      k += m;
    }
  }
  return { offsets, starts, ends, scores };
}
