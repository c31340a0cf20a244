// A dense column of one (attribute set, key path) over every indexed document, loaded on first use.
import type { DB } from './db.js';
import type { Interner } from './interner.js';
import { unpack } from './pack.js';
import { markShared } from './shared.js';
import { T } from './tags.js';

export interface Spans {
  /** offsets[g]..offsets[g+1] index starts/ends/scores for document g (SPANS documents only). */
  offsets: Uint32Array | Float64Array;
  starts: Uint32Array;
  ends: Uint32Array;
  scores: Float64Array | Float32Array;
}

/**
 * A column's numbers: float32 when every value it holds is exactly a float32 (counts, flags, lengths,
 * string codes), which halves the column and compares identically; float64 otherwise. Never written.
 */
export type Nums = Float64Array | Float32Array;

export interface Column {
  set: string;
  path: string[];
  tag: Uint8Array;
  /** NUM: the number; SPANS: the first span's score; STR: an Interner code (-1: not coded). */
  num: Nums;
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
  /** A sample's held lines of the file, ascending (null: every line, at start + line). */
  ords: Uint32Array | null;
}

/**
 * Where each entry of a file's chunk goes, relative to the file's start: its line (every line held) or its
 * position among a sample's held lines, -1 when the sample does not hold it. Chunks list lines ascending.
 */
function destinations(range: FileRange, ords: Uint32Array): Uint32Array | Int32Array {
  const held = range.ords;
  if (held === null) return ords;
  const out = new Int32Array(ords.length);
  let i = 0;
  for (let j = 0; j < ords.length; j++) {
    const o = ords[j] as number;
    if (j > 0 && o < (ords[j - 1] as number)) i = 0;
    while (i < held.length && (held[i] as number) < o) i++;
    out[j] = i < held.length && held[i] === o ? i : -1;
  }
  return out;
}

/** Reads one column's per-file chunks from the index and scatters them into dense arrays. */
export function loadColumn(db: DB, set: string, path: string[], files: ReadonlyMap<number, FileRange>, n: number, interner: Interner): Column {
  const key = JSON.stringify(path);
  const rows = db.prepare('SELECT file, data, dict FROM columns WHERE set_name = ? AND path = ?').all(set, key) as { file: number; data: Buffer; dict: string }[];
  // A merge asks every listed set for every key a rule names, and most sets lack most keys: such
  // columns share one pair of all-ABSENT arrays instead of 9 bytes per document each (columns are never written).
  if (rows.every((r) => !files.has(r.file))) return absentColumn(set, path, n);
  const tag = new Uint8Array(n);
  const num = new Float64Array(n);
  const chunks: { start: number; dest: Uint32Array | Int32Array; counts: Uint32Array }[] = [];
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
    const dest = destinations(range, ords);
    for (let j = 0; j < ords.length; j++) {
      const d = dest[j] as number;
      if (d < 0) continue;
      const g = range.start + d;
      present++;
      const t = tags[j] as number;
      tag[g] = t;
      num[g] = t === T.STR ? (nums[j] === -1 ? -1 : (dict[nums[j] as number] ?? -1)) : (nums[j] as number);
      if (t === T.ODDARR || (t === T.SPANS && counts[j] !== 1)) unit = false;
    }
    chunks.push({ start: range.start, dest, counts });
  }
  let count: Uint32Array | null = null;
  if (!unit) {
    count = new Uint32Array(n);
    for (const c of chunks) {
      for (let j = 0; j < c.dest.length; j++) {
        const d = c.dest[j] as number;
        if (d >= 0) count[c.start + d] = c.counts[j] as number;
      }
    }
  }
  const nums = narrow(num);
  const tags = uniform(tag);
  markShared(tags, nums, count);
  let spans: Spans | null = null;
  return {
    set,
    path,
    tag: tags,
    num: nums,
    count,
    present,
    spans: () => (spans ??= loadSpans(db, set, key, files, n, tags, count)),
  };
}

/** Shared constant tag arrays by tag and index size (a sampled and a whole engine may share a process). */
const constantTags = new Map<string, Uint8Array>();

/**
 * A column every document has with the same type (a tagger's key: SPANS everywhere) shares one constant
 * array of that tag with the other such columns: a byte per document per column saved (never written).
 */
function uniform(tag: Uint8Array): Uint8Array {
  const t = tag[0];
  if (t === undefined || t === T.ABSENT) return tag;
  for (let g = 1; g < tag.length; g++) if (tag[g] !== t) return tag;
  const key = `${t}:${tag.length}`;
  let shared = constantTags.get(key);
  if (shared === undefined) {
    if (constantTags.size >= 16) constantTags.clear();
    constantTags.set(key, (shared = tag));
  }
  return shared;
}

/** The float32 copy of `num` when it holds every value exactly (absent documents hold 0). */
function narrow(num: Float64Array): Nums {
  for (let g = 0; g < num.length; g++) {
    const x = num[g] as number;
    if (Math.fround(x) !== x && !Number.isNaN(x)) return num;
  }
  return Float32Array.from(num);
}

const absent = new Map<number, { tag: Uint8Array; num: Float64Array }>();

/** The shared all-ABSENT arrays, made when a reader first looks (a merge names such columns but mostly skips them). */
function absentArrays(n: number): { tag: Uint8Array; num: Float64Array } {
  let a = absent.get(n);
  if (a === undefined) {
    if (absent.size >= 4) absent.clear();
    absent.set(n, (a = { tag: new Uint8Array(n), num: new Float64Array(n) }));
    markShared(a.tag, a.num);
  }
  return a;
}

function absentColumn(set: string, path: string[], n: number): Column {
  const spans: Spans = { offsets: new Float64Array(0), starts: new Uint32Array(0), ends: new Uint32Array(0), scores: new Float64Array(0) };
  return {
    set, path, count: null, present: 0, spans: () => spans,
    get tag() {
      return absentArrays(n).tag;
    },
    get num() {
      return absentArrays(n).num;
    },
  };
}

/** Span scores as float32 when each is one exactly (flags and counts: 1.0, 0.5, 3), half the bytes. */
function narrowScores(scores: Float64Array): Float64Array | Float32Array {
  for (let i = 0; i < scores.length; i++) {
    const x = scores[i] as number;
    if (Math.fround(x) !== x && !Number.isNaN(x)) return scores;
  }
  return Float32Array.from(scores);
}

function loadSpans(db: DB, set: string, key: string, files: ReadonlyMap<number, FileRange>, n: number, tag: Uint8Array, count: Uint32Array | null): Spans {
  let total = 0;
  for (let g = 0; g < n; g++) total += tag[g] === T.SPANS ? (count === null ? 1 : (count[g] as number)) : 0;
  // 4 bytes per document, unless a column holds more than 2^32 spans.
  const offsets = total < 2 ** 32 ? new Uint32Array(n + 1) : new Float64Array(n + 1);
  for (let g = 0; g < n; g++) offsets[g + 1] = (offsets[g] as number) + (tag[g] === T.SPANS ? (count === null ? 1 : (count[g] as number)) : 0);
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
    // Schema 3 on: each entry's first score is its num (laterScores holds the rest); before, every score.
    const all = p.has('scores') ? p.f64('scores') : null;
    const nums = all === null ? p.f64('nums') : null;
    const later = all === null ? p.f64('laterScores') : null;
    const dest = destinations(range, ords);
    let k = 0;
    let l = 0;
    for (let j = 0; j < ords.length; j++) {
      if (tags[j] !== T.SPANS) continue;
      const m = counts[j] as number;
      const d = dest[j] as number;
      if (d >= 0) {
        const at = offsets[range.start + d] as number;
        starts.set(s.subarray(k, k + m), at);
        ends.set(e.subarray(k, k + m), at);
        if (all !== null) scores.set(all.subarray(k, k + m), at);
        else {
          scores[at] = (nums as Float64Array)[j] as number;
          if (m > 1) scores.set((later as Float64Array).subarray(l, l + m - 1), at + 1);
        }
      }
      k += m;
      l += m - 1; // a SPANS entry has at least one span
    }
  }
  return { offsets, starts, ends, scores: narrowScores(scores) };
}
