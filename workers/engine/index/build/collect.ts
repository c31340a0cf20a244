// Collects one file's values of every key path of an attributes object (or document) into sparse columns.
import { pack } from '../store/pack.js';
import { MAX_DICT, T, tagOf } from '../store/tags.js';

const MAX_OFFSET = 2 ** 32 - 1;

/** A column of one key path in one file, sparse: only documents where the key is present. */
export interface ColumnData {
  /** Key path from the set's `attributes` object (or from the document root for the DOC set). */
  path: string[];
  /** Packed arrays: ords (u32), tags (u8), nums (f64), counts (u32), starts/ends (u32), scores (f64). */
  blob: Buffer;
  /** Dictionary of string codes (nums of STR entries index it; -1 = not coded). */
  dict: string[];
  present: number;
}

/** An append-only typed array (plain arrays of numbers cost a lot of garbage at millions of values). */
class Grow<A extends Uint8Array | Uint32Array | Float64Array> {
  n = 0;
  constructor(
    private buf: A,
    private readonly make: (size: number) => A,
  ) {}

  push(v: number): void {
    if (this.n === this.buf.length) {
      const next = this.make(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = v;
  }

  done(): A {
    return this.buf.subarray(0, this.n) as A;
  }
}

const u8 = (): Grow<Uint8Array> => new Grow(new Uint8Array(64), (n) => new Uint8Array(n));
const u32 = (): Grow<Uint32Array> => new Grow(new Uint32Array(64), (n) => new Uint32Array(n));
const f64 = (): Grow<Float64Array> => new Grow(new Float64Array(64), (n) => new Float64Array(n));

class Collector {
  readonly ords = u32();
  readonly tags = u8();
  readonly nums = f64();
  readonly counts = u32();
  readonly starts = u32();
  readonly ends = u32();
  readonly scores = f64();
  readonly dict = new Map<string, number>();
  readonly children = new Map<string, Collector>();

  constructor(
    readonly path: string[],
    /** Strings never coded (document text and ids: unique per document). */
    private readonly coded: boolean,
  ) {}

  add(ord: number, v: unknown): void {
    let tag: number;
    let num = 0;
    let count = 0;
    if (typeof v === 'number') {
      tag = T.NUM;
      num = v;
    } else if (Array.isArray(v)) {
      count = v.length;
      tag = count === 0 ? T.EMPTY : this.spans(v) ? T.SPANS : T.ODDARR;
      if (tag === T.SPANS) num = (v[0] as number[])[2] as number;
    } else {
      tag = tagOf(v);
      if (tag === T.STR) num = this.code(v as string);
    }
    this.ords.push(ord);
    this.tags.push(tag);
    this.nums.push(num);
    this.counts.push(count);
  }

  /** Appends the spans of a regular `[start, end, score]` list in one pass; leaves nothing behind for any other array. */
  private spans(a: unknown[]): boolean {
    const mark = this.starts.n;
    for (let i = 0; i < a.length; i++) {
      const s = a[i];
      if (!Array.isArray(s) || s.length !== 3) return this.rollback(mark);
      const b = s[0];
      const e = s[1];
      const c = s[2];
      if (typeof b !== 'number' || typeof e !== 'number' || typeof c !== 'number' || !(b >= 0 && b <= MAX_OFFSET && e >= 0 && e <= MAX_OFFSET) || !Number.isInteger(b) || !Number.isInteger(e)) {
        return this.rollback(mark);
      }
      this.starts.push(b);
      this.ends.push(e);
      this.scores.push(c);
    }
    return true;
  }

  private rollback(mark: number): false {
    this.starts.n = mark;
    this.ends.n = mark;
    this.scores.n = mark;
    return false;
  }

  private code(s: string): number {
    if (!this.coded) return -1;
    let c = this.dict.get(s);
    if (c === undefined) {
      if (this.dict.size >= MAX_DICT) return -1;
      c = this.dict.size;
      this.dict.set(s, c);
    }
    return c;
  }

  child(key: string): Collector {
    let c = this.children.get(key);
    if (c === undefined) {
      c = new Collector([...this.path, key], this.coded);
      this.children.set(key, c);
    }
    return c;
  }

  data(): ColumnData {
    const blob = pack({
      ords: this.ords.done(),
      tags: this.tags.done(),
      nums: this.nums.done(),
      counts: this.counts.done(),
      starts: this.starts.done(),
      ends: this.ends.done(),
      scores: this.scores.done(),
    });
    return { path: this.path, blob, dict: [...this.dict.keys()], present: this.ords.n };
  }
}

/** Every key path of one attribute set (or of the documents) in one file. */
export class ColumnSet {
  private readonly root: Collector;

  constructor(
    private readonly depth: number,
    uncoded: readonly string[] = [],
  ) {
    this.root = new Collector([], true);
    for (const k of uncoded) this.root.children.set(k, new Collector([k], false));
  }

  /** Record the members of `obj` (an attributes object or a document) for document `ord`. */
  addObject(ord: number, obj: Record<string, unknown>): void {
    walk(this.root, obj, ord, this.depth);
  }

  columns(): ColumnData[] {
    const out: ColumnData[] = [];
    const visit = (c: Collector): void => {
      for (const child of c.children.values()) {
        if (child.ords.n > 0) out.push(child.data());
        visit(child);
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
