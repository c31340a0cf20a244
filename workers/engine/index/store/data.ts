// The index as the preview holds it: files in path order, per-document arrays, and columns loaded on demand.
import type { Problem } from '../build/extract.js';
import { loadColumn, type Column, type FileRange } from './column.js';
import { getMeta, type DB } from './db.js';
import { Interner } from './interner.js';
import { unpack } from './pack.js';
import { zOf } from '../preview/estimate.js';
import { fmix32 } from '../../mix/sample.js';
import { Bitset } from '../preview/bitset.js';
import { DOC_SET, pathKey, T } from './tags.js';
import { loadCounts, recordedTokenizer } from '../tokens/store.js';
import type { CountingTokenizer } from '../tokens/tokenizer.js';

export interface AttrFileInfo {
  path: string;
  size: number;
  mtime: number;
  problem: Problem | null;
}

/** A uniform sample of the index: which documents a sampled IndexData holds. */
export interface SampleSpec {
  /** Documents wanted (the sample is a Bernoulli draw of docs / N, so it holds about that many). */
  docs: number;
  seed: number;
  /** Confidence level of the intervals (default 0.95). */
  level?: number;
}

/** What a sampled IndexData holds: `docs` of the index's `of` documents, drawn with probability `fraction`. */
export interface SampleInfo {
  docs: number;
  of: number;
  fraction: number;
  seed: number;
  level: number;
  /** Normal quantile of `level` (two-sided). */
  z: number;
}

export interface FileInfo extends FileRange {
  path: string;
  /** Position in path order. */
  order: number;
  size: number;
  mtime: number;
  rawBytes: number;
  problem: Problem | null;
  sets: Map<string, AttrFileInfo>;
  /** Documents of the file in the index (`docs` is how many of them this IndexData holds). */
  fileDocs: number;
}

export interface KeyInfo {
  set: string;
  path: string[];
  present: number;
}

interface FileRow {
  id: number;
  path: string;
  size: number;
  mtime: number;
  docs: number;
  raw_bytes: number;
  problem: string | null;
  data: Buffer;
  sources: string;
}

export class IndexData {
  readonly files: FileInfo[] = [];
  readonly byId = new Map<number, FileInfo>();
  readonly n: number;
  /** UTF-8 bytes of each document's text: read on first use (the document table and status need it, previews do not). */
  get bytes(): Uint32Array {
    if (this.#bytes === undefined) {
      const b = new Uint32Array(this.n);
      for (const r of this.db.prepare('SELECT id, data FROM files').all() as { id: number; data: Buffer }[]) {
        const f = this.byId.get(r.id);
        if (f === undefined) continue;
        const all = unpack(r.data).u32('bytes');
        b.set(f.ords === null ? all : pick(all, f.ords), f.start);
      }
      this.#bytes = b;
    }
    return this.#bytes;
  }

  #bytes: Uint32Array | undefined;
  readonly chars: Uint32Array;
  readonly trimmed: Uint32Array;
  /**
   * Tokens of each document: where `tokensExact(g)`, the exact count with `tokenizer` — what `assay tokens`
   * writes for it with that EOS (0 for a text empty once stripped, which it skips) — else the estimate
   * ⌈UTF-8 bytes / 4⌉ (0 for a non-string text). Counts are of the input text: span replacement is not applied.
   * Sum them per source and ask `uncounted` (or `tokensExact`) whether a sum is exact.
   */
  readonly tokens: Uint32Array;
  /** The tokenizer of the exact counts (`assay index --tokenizer`), null when the index has none. */
  readonly tokenizer: CountingTokenizer | null;
  /** Documents whose `tokens` is an estimate: their file has no valid count (all of them without a tokenizer). */
  readonly uncounted: Bitset;
  readonly textTag: Uint8Array;
  /** Source of each document, as an index into `sourceNames`. */
  readonly source: Uint32Array;
  readonly sourceNames: string[] = [];
  /** Real attribute sets (not the documents' own fields), sorted. */
  readonly sets: string[];
  readonly keys: KeyInfo[];
  readonly interner = new Interner();
  readonly generation: number;
  readonly builtAt: string | undefined;
  /** Null: every indexed document is held; else the uniform sample this holds (figures are estimates). */
  readonly sample: SampleInfo | null;
  private readonly columns = new Map<string, Column>();

  constructor(
    private readonly db: DB,
    sampleSpec: SampleSpec | null = null,
  ) {
    const rows = db.prepare('SELECT id, path, size, mtime, docs, raw_bytes, problem, data, sources FROM files').all() as FileRow[];
    rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const of = rows.reduce((s, r) => s + r.docs, 0);
    const fraction = sampleSpec === null ? 1 : Math.min(1, sampleSpec.docs / Math.max(1, of));
    let start = 0;
    let position = 0;
    for (const [order, r] of rows.entries()) {
      const ords = fraction < 1 ? drawn(position, r.docs, fraction, (sampleSpec as SampleSpec).seed) : null;
      position += r.docs;
      const docs = ords === null ? r.docs : ords.length;
      const info: FileInfo = {
        id: r.id, path: r.path, order, start, docs, size: r.size, mtime: r.mtime, rawBytes: r.raw_bytes,
        problem: r.problem === null ? null : (JSON.parse(r.problem) as Problem), sets: new Map(), fileDocs: r.docs, ords,
      };
      this.files.push(info);
      this.byId.set(r.id, info);
      start += docs;
    }
    const n = (this.n = start);
    const level = sampleSpec?.level ?? 0.95;
    this.sample = fraction < 1 ? { docs: n, of, fraction, seed: (sampleSpec as SampleSpec).seed, level, z: zOf(level) } : null;
    this.chars = new Uint32Array(n);
    this.trimmed = new Uint32Array(n);
    this.tokens = new Uint32Array(n);
    this.textTag = new Uint8Array(n);
    this.source = new Uint32Array(n);
    const sourceCodes = new Map<string, number>();
    const counts = loadCounts(db);
    this.tokenizer = recordedTokenizer(db);
    this.uncounted = new Bitset(n);
    for (const r of rows) {
      const f = this.byId.get(r.id) as FileInfo;
      const p = unpack(r.data);
      // A sample keeps its documents' entries only.
      const held = <A extends Uint32Array | Uint8Array>(a: A): A => (f.ords === null ? a : pick(a, f.ords));
      this.chars.set(held(p.u32('chars')), f.start);
      this.trimmed.set(held(p.u32('trimmed')), f.start);
      const exact = counts.get(r.id);
      this.tokens.set(held(exact ?? p.u32('tokens')), f.start);
      if (exact === undefined) for (let g = f.start; g < f.start + f.docs; g++) this.uncounted.set(g);
      this.textTag.set(held(p.u8('textTag')), f.start);
      const map = (JSON.parse(r.sources) as string[]).map((s) => {
        let c = sourceCodes.get(s);
        if (c === undefined) {
          sourceCodes.set(s, (c = this.sourceNames.length));
          this.sourceNames.push(s);
        }
        return c;
      });
      const local = held(p.u32('sourceCodes'));
      for (let i = 0; i < local.length; i++) this.source[f.start + i] = map[local[i] as number] as number;
    }
    for (const a of db.prepare('SELECT set_name, file, path, size, mtime, problem FROM attr_files').all() as { set_name: string; file: number; path: string; size: number; mtime: number; problem: string | null }[]) {
      this.byId.get(a.file)?.sets.set(a.set_name, { path: a.path, size: a.size, mtime: a.mtime, problem: a.problem === null ? null : (JSON.parse(a.problem) as Problem) });
    }
    this.sets = (db.prepare('SELECT DISTINCT set_name FROM attr_files ORDER BY set_name').pluck().all() as string[]).filter((s) => s !== DOC_SET);
    this.keys = (db.prepare('SELECT set_name, path, sum(present) AS present FROM columns GROUP BY set_name, path').all() as { set_name: string; path: string; present: number }[]).map((r) => ({
      set: r.set_name,
      path: JSON.parse(r.path) as string[],
      present: r.present,
    }));
    this.generation = Number(getMeta(db, 'generation') ?? '0');
    this.builtAt = getMeta(db, 'built_at');
  }

  /** The dense column of a key path in a set (all ABSENT when no document has it). */
  column(set: string, path: readonly string[]): Column {
    const key = `${set}\u0000${pathKey(path)}`;
    let c = this.columns.get(key);
    if (c === undefined) {
      c = loadColumn(this.db, set, [...path], this.byId, this.n, this.interner);
      this.columns.set(key, c);
    }
    return c;
  }

  /** Documents whose `text` is not a string (span replacement and min_text_length fail on them). */
  nonStringText(): Bitset {
    if (this.#nonString === undefined) {
      const b = new Bitset(this.n);
      for (let g = 0; g < this.n; g++) if (this.textTag[g] !== T.STR) b.set(g);
      this.#nonString = b;
    }
    return this.#nonString;
  }

  #nonString: Bitset | undefined;

  /** Whether `tokens[g]` is an exact tokenizer count (not an estimate). */
  tokensExact(g: number): boolean {
    return !this.uncounted.has(g);
  }

  /** Document `g`'s line number in its file `f` (0-based). */
  ordOf(f: FileInfo, g: number): number {
    return f.ords === null ? g - f.start : (f.ords[g - f.start] as number);
  }

  /** The document number of line `ord` of file `f`, or -1 when a sample does not hold it. */
  docOf(f: FileInfo, ord: number): number {
    if (f.ords === null) return f.start + ord;
    const i = lowerBound(f.ords, ord);
    return f.ords[i] === ord ? f.start + i : -1;
  }

  /** The file holding document `g`. */
  fileOf(g: number): FileInfo {
    let lo = 0;
    let hi = this.files.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.files[mid] as FileInfo).start <= g) lo = mid;
      else hi = mid - 1;
    }
    return this.files[lo] as FileInfo;
  }
}

/** The elements of `a` at `ords`, in a new array of the same kind. */
function pick<A extends Uint32Array | Uint8Array>(a: A, ords: Uint32Array): A {
  const out = (a instanceof Uint8Array ? new Uint8Array(ords.length) : new Uint32Array(ords.length)) as A;
  for (let i = 0; i < ords.length; i++) out[i] = a[ords[i] as number] as number;
  return out;
}

function lowerBound(xs: Uint32Array, v: number): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The lines of a file a sample draws: document at index position p is held iff a hash of (p, seed) falls
 * below fraction × 2^32 — a Bernoulli draw, independent per document, the same every time for a seed.
 */
export function drawn(position: number, docs: number, fraction: number, seed: number): Uint32Array {
  const bound = fraction * 2 ** 32;
  const out: number[] = [];
  for (let ord = 0; ord < docs; ord++) if (mix32(position + ord, seed) < bound) out.push(ord);
  return Uint32Array.from(out);
}

/** murmur3's 32-bit finaliser over the position and the seed (well mixed; unsigned). */
function mix32(x: number, seed: number): number {
  return fmix32(Math.imul(x | 0, 0x9e3779b1) ^ Math.imul(seed | 0, 0x85ebca77) ^ Math.floor(x / 2 ** 32));
}
