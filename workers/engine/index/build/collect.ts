// Collects one file's values of every key path of an attributes object (or document) into sparse columns.
import { pack } from '../store/pack.js';
import { keyWords, plainKey } from './bytes.js';
import { MAX_DICT, T, tagOf } from '../store/tags.js';

const MAX_OFFSET = 2 ** 32 - 1;

/** A column of one key path in one file, sparse: only documents where the key is present. */
export interface ColumnData {
  /** Key path from the set's `attributes` object (or from the document root for the DOC set). */
  path: string[];
  /** Packed arrays: ords (u32, delta-coded), tags (u8), nums (f64), counts (u32), starts/ends (u32), laterScores (f64: all but each entry's first span's, which is its num). */
  blob: Buffer;
  /** Dictionary of string codes (nums of STR entries index it; -1 = not coded). */
  dict: string[];
  present: number;
}

/**
 * One key path's column. Entries (ords/tags/nums/counts, `n` of them) and spans (starts/ends/scores,
 * `spanN`) live in typed arrays grown together, so a push checks capacity once. The byte scanner
 * (scan.ts) writes entries directly and may take back those of a line it hands to JSON.parse.
 */
export class Collector {
  n = 0;
  ords = new Uint32Array(16);
  tags = new Uint8Array(16);
  nums = new Float64Array(16);
  counts = new Uint32Array(16);
  spanN = 0;
  starts = new Uint32Array(16);
  ends = new Uint32Array(16);
  scores = new Float64Array(16);
  readonly dict = new Map<string, number>();
  readonly children = new Map<string, Collector>();
  /** UTF-8 of the last path element and its words, matched against raw key bytes (null: a key that needs escapes). */
  readonly keyBytes: Buffer;
  readonly keyWords: Int32Array | null;
  /** The children in the order the last object listed them: the next object most likely repeats it. */
  readonly seq: Collector[] = [];
  /** Line attempt that last reached this key (a second visit in one line is a duplicate key). */
  stamp = 0;
  /** The document whose value added the last dictionary string (so `undo` can take it back). */
  private codedAt = -1;
  private lastCoded = '';

  constructor(
    readonly path: string[],
    /** Strings never coded (document text and ids: unique per document). */
    readonly coded: boolean,
    /** Documents in the file when known (0 if not): a column never holds more entries, and grows toward its projected size. */
    private readonly expected = 0,
  ) {
    const key = path.at(-1) ?? '';
    this.keyBytes = Buffer.from(key);
    this.keyWords = plainKey(key) ? keyWords(this.keyBytes) : null;
  }

  /** An entry whose tag and number the caller computed exactly as `add` would. */
  push(ord: number, tag: number, num: number, count: number): void {
    const n = this.n;
    if (n === this.ords.length) this.grow(ord);
    this.ords[n] = ord;
    this.tags[n] = tag;
    this.nums[n] = num;
    this.counts[n] = count;
    this.n = n + 1;
  }

  /** A span of the entry document `ord` is about to get. */
  pushSpan(ord: number, start: number, end: number, score: number): void {
    const k = this.spanN;
    if (k === this.starts.length) this.growSpans(ord);
    this.starts[k] = start;
    this.ends[k] = end;
    this.scores[k] = score;
    this.spanN = k + 1;
  }

  /**
   * Doubling alone copies and zero-fills twice the final size of every column (measured ≈ 15% of
   * reading an attribute file); when the file's document count is known, a column grows at once to
   * what its density so far projects (never past one entry per document).
   */
  private capacity(used: number, ord: number, perDoc: boolean): number {
    if (this.expected <= 0) return used * 2;
    const projected = Math.ceil((used / (ord + 1)) * this.expected * 1.05);
    return Math.max(used + 16, perDoc ? Math.min(this.expected, Math.max(used * 2, projected)) : Math.max(used * 2, projected));
  }

  private grow(ord: number): void {
    const size = this.capacity(this.n, ord, true);
    this.ords = copy(this.ords, new Uint32Array(take(size * 4), 0, size));
    this.tags = copy(this.tags, new Uint8Array(take(size), 0, size));
    this.nums = copy(this.nums, new Float64Array(take(size * 8), 0, size));
    this.counts = copy(this.counts, new Uint32Array(take(size * 4), 0, size));
  }

  private growSpans(ord: number): void {
    const size = this.capacity(this.spanN, ord, false);
    this.starts = copy(this.starts, new Uint32Array(take(size * 4), 0, size));
    this.ends = copy(this.ends, new Uint32Array(take(size * 4), 0, size));
    this.scores = copy(this.scores, new Float64Array(take(size * 8), 0, size));
  }

  /** Hands the arrays to the next file's columns (this collector is finished: its data() was taken). */
  release(): void {
    for (const a of [this.ords, this.tags, this.nums, this.counts, this.starts, this.ends, this.scores]) give(a.buffer);
    this.n = this.spanN = 0;
    this.ords = this.counts = this.starts = this.ends = new Uint32Array(0);
    this.tags = new Uint8Array(0);
    this.nums = this.scores = new Float64Array(0);
  }

  /**
   * Takes back what a failed attempt at document `ord` added: its entry (the last one, as each
   * document adds at most one), that entry's spans, and a dictionary string first seen in it.
   */
  undo(ord: number): void {
    const n = this.n - 1;
    if (n >= 0 && this.ords[n] === ord) {
      if (this.tags[n] === T.SPANS) this.rollback(this.spanN - (this.counts[n] as number));
      this.n = n;
    }
    if (this.codedAt === ord) {
      this.dict.delete(this.lastCoded);
      this.codedAt = -1;
    }
  }

  add(ord: number, v: unknown): void {
    let tag: number;
    let num = 0;
    let count = 0;
    if (typeof v === 'number') {
      tag = T.NUM;
      num = v;
    } else if (Array.isArray(v)) {
      count = v.length;
      tag = count === 0 ? T.EMPTY : this.spans(ord, v) ? T.SPANS : T.ODDARR;
      if (tag === T.SPANS) num = (v[0] as number[])[2] as number;
    } else {
      tag = tagOf(v);
      if (tag === T.STR) num = this.code(v as string, ord);
    }
    this.push(ord, tag, num, count);
  }

  /** Appends the spans of a regular `[start, end, score]` list in one pass; leaves nothing behind for any other array. */
  private spans(ord: number, a: unknown[]): boolean {
    const mark = this.spanN;
    for (let i = 0; i < a.length; i++) {
      const s = a[i];
      if (!Array.isArray(s) || s.length !== 3) return this.rollback(mark);
      const b = s[0];
      const e = s[1];
      const c = s[2];
      if (typeof b !== 'number' || typeof e !== 'number' || typeof c !== 'number' || !(b >= 0 && b <= MAX_OFFSET && e >= 0 && e <= MAX_OFFSET) || !Number.isInteger(b) || !Number.isInteger(e)) {
        return this.rollback(mark);
      }
      this.pushSpan(ord, b, e, c);
    }
    return true;
  }

  /** Drops the spans from `mark` on. */
  rollback(mark: number): false {
    this.spanN = mark;
    return false;
  }

  /** The dictionary code of `s`, a value of document `ord`. */
  code(s: string, ord: number): number {
    if (!this.coded) return -1;
    let c = this.dict.get(s);
    if (c === undefined) {
      if (this.dict.size >= MAX_DICT) return -1;
      c = this.dict.size;
      this.dict.set(s, c);
      this.codedAt = ord;
      this.lastCoded = s;
    }
    return c;
  }

  child(key: string): Collector {
    let c = this.children.get(key);
    if (c === undefined) {
      c = new Collector([...this.path, key], this.coded, this.expected);
      this.children.set(key, c);
    }
    return c;
  }

  /**
   * The scores of every span but each entry's first: a SPANS entry's number is its first span's score,
   * so storing it twice would double the blob of the common `[[0, n, score]]` column (the reader puts it back).
   */
  private laterScores(): Float64Array {
    const n = this.n;
    let spans = 0;
    for (let j = 0; j < n; j++) if (this.tags[j] === T.SPANS) spans++;
    const out = new Float64Array(this.spanN - spans);
    if (out.length === 0) return out;
    let k = 0;
    let o = 0;
    for (let j = 0; j < n; j++) {
      if (this.tags[j] !== T.SPANS) continue;
      const m = this.counts[j] as number;
      for (let i = 1; i < m; i++) out[o++] = this.scores[k + i] as number;
      k += m;
    }
    return out;
  }

  data(): ColumnData {
    const n = this.n;
    const k = this.spanN;
    const blob = pack(
      {
        ords: this.ords.subarray(0, n),
        tags: this.tags.subarray(0, n),
        nums: this.nums.subarray(0, n),
        counts: this.counts.subarray(0, n),
        starts: this.starts.subarray(0, k),
        ends: this.ends.subarray(0, k),
        laterScores: this.laterScores(),
      },
      ['ords'],
    );
    return { path: this.path, blob, dict: [...this.dict.keys()], present: n };
  }
}

/** Every key path of one attribute set (or of the documents) in one file. */
export class ColumnSet {
  readonly root: Collector;

  constructor(
    private readonly depth: number,
    uncoded: readonly string[] = [],
    /** Documents in the file, when known before reading it (sizes the columns). */
    docs = 0,
  ) {
    this.root = new Collector([], true, docs);
    for (const k of uncoded) this.root.children.set(k, new Collector([k], false, docs));
  }

  /** Record the members of `obj` (an attributes object or a document) for document `ord`. */
  addObject(ord: number, obj: Record<string, unknown>): void {
    walk(this.root, obj, ord, this.depth);
  }

  /** The packed columns; the set is finished after this (its arrays go to the next file's columns). */
  columns(): ColumnData[] {
    const out: ColumnData[] = [];
    const visit = (c: Collector): void => {
      for (const child of c.children.values()) {
        if (child.n > 0) out.push(child.data());
        visit(child);
        child.release();
      }
    };
    visit(this.root);
    return out;
  }
}

function walk(parent: Collector, obj: Record<string, unknown>, ord: number, depthLeft: number): void {
  // JSON.parse objects have only own, enumerable data properties: for-in visits exactly Object.keys, without the array.
  for (const key in obj) {
    const v = obj[key];
    const c = parent.child(key);
    c.add(ord, v);
    if (depthLeft > 1 && v !== null && typeof v === 'object' && !Array.isArray(v)) walk(c, v as Record<string, unknown>, ord, depthLeft - 1);
  }
}

/**
 * Array buffers of finished columns, for the next file's: a reader reads file after file, and each file's
 * columns fill ≈ 40 MB of typed arrays. Reusing them saves allocating and zero-filling those, and the
 * garbage collections that much external memory forces (measured: ≈ 14% of a reader's time went to GC).
 * Contents are stale: a column only reads back entries it wrote (below `n` / `spanN`).
 */
const spare: ArrayBuffer[] = [];
let spareBytes = 0;
const SPARE_MIN = 64 * 1024;
const SPARE_MAX = 128 * 1024 * 1024;

/** A buffer of at least `bytes` (at most twice that, so small columns do not hold large buffers). */
function take(bytes: number): ArrayBuffer {
  if (bytes >= SPARE_MIN) {
    let best = -1;
    for (let i = 0; i < spare.length; i++) {
      const len = (spare[i] as ArrayBuffer).byteLength;
      if (len >= bytes && len <= bytes * 2 && (best < 0 || len < (spare[best] as ArrayBuffer).byteLength)) best = i;
    }
    if (best >= 0) {
      const b = spare[best] as ArrayBuffer;
      spare[best] = spare[spare.length - 1] as ArrayBuffer;
      spare.pop();
      spareBytes -= b.byteLength;
      return b;
    }
  }
  return new ArrayBuffer(bytes);
}

function give(b: ArrayBufferLike): void {
  if (!(b instanceof ArrayBuffer) || b.byteLength < SPARE_MIN || spareBytes + b.byteLength > SPARE_MAX) return;
  spare.push(b);
  spareBytes += b.byteLength;
}

/** Lets the spare buffers go (a process that is done reading files). */
export function dropSpareBuffers(): void {
  spare.length = 0;
  spareBytes = 0;
}

/** `from` copied into `to`; `from`'s buffer is spare after. */
function copy<A extends Uint8Array | Uint32Array | Float64Array>(from: A, to: A): A {
  to.set(from);
  give(from.buffer);
  return to;
}
