// Every document's span replacements, packed in typed arrays (a Map of arrays of objects took ≈ 110 bytes a document).
import type { Replacement } from '../../mix/spans.js';

export interface Rep extends Replacement {
  rule: number;
}

/**
 * Replacements are added replacer by replacer (then span by span); `seal` orders them by document,
 * keeping that order within one, which is the order the mixer applies them in. Lists are built on read.
 */
export class RepStore {
  private gs: Int32Array = new Int32Array(1024);
  // Float64: spans the exact path selects may be any JSON numbers, and the mixer applies them as they are.
  private starts: Float64Array = new Float64Array(1024);
  private ends: Float64Array = new Float64Array(1024);
  private rules: Uint16Array = new Uint16Array(1024);
  private texts: Uint32Array = new Uint32Array(1024);
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private n = 0;
  private sealed = false;

  add(g: number, start: number, end: number, replacement: string, rule: number): void {
    if (this.sealed) throw new Error('RepStore: add after seal');
    if (this.n === this.gs.length) this.grow();
    let id = this.stringIds.get(replacement);
    if (id === undefined) {
      this.stringIds.set(replacement, (id = this.strings.length));
      this.strings.push(replacement);
    }
    const i = this.n++;
    this.gs[i] = g;
    this.starts[i] = start;
    this.ends[i] = end;
    this.rules[i] = rule;
    this.texts[i] = id;
  }

  /** Orders the entries by document (stable: each document's replacements keep their order). */
  seal(): this {
    const n = this.n;
    const order = Array.from({ length: n }, (_, i) => i);
    const gs = this.gs;
    order.sort((a, b) => (gs[a] as number) - (gs[b] as number) || a - b);
    const take = <A extends Int32Array | Uint32Array | Uint16Array | Float64Array>(src: A, make: (len: number) => A): A => {
      const out = make(n);
      for (let i = 0; i < n; i++) out[i] = src[order[i] as number] as number;
      return out;
    };
    this.gs = take(this.gs, (len) => new Int32Array(len));
    this.starts = take(this.starts, (len) => new Float64Array(len));
    this.ends = take(this.ends, (len) => new Float64Array(len));
    this.rules = take(this.rules, (len) => new Uint16Array(len));
    this.texts = take(this.texts, (len) => new Uint32Array(len));
    this.sealed = true;
    return this;
  }

  /** Document `g`'s replacements in the mixer's order, or undefined when it has none. */
  get(g: number): Rep[] | undefined {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.gs[mid] as number) < g) lo = mid + 1;
      else hi = mid;
    }
    if (lo === this.n || this.gs[lo] !== g) return undefined;
    let end = lo;
    while (end < this.n && this.gs[end] === g) end++;
    return this.list(lo, end);
  }

  /** Documents with replacements and their lists, ascending by document. */
  *[Symbol.iterator](): IterableIterator<[number, Rep[]]> {
    let i = 0;
    while (i < this.n) {
      const g = this.gs[i] as number;
      let end = i;
      while (end < this.n && this.gs[end] === g) end++;
      yield [g, this.list(i, end)];
      i = end;
    }
  }

  *values(): IterableIterator<Rep[]> {
    for (const [, list] of this) yield list;
  }

  /** The rules (replacer positions) that replace anything at all. */
  usedRules(): Set<number> {
    const out = new Set<number>();
    for (let i = 0; i < this.n; i++) out.add(this.rules[i] as number);
    return out;
  }

  private list(from: number, to: number): Rep[] {
    const out: Rep[] = [];
    for (let i = from; i < to; i++) out.push({ start: this.starts[i] as number, end: this.ends[i] as number, replacement: this.strings[this.texts[i] as number] as string, rule: this.rules[i] as number });
    return out;
  }

  private grow(): void {
    const size = this.gs.length * 2;
    const grown = <A extends Int32Array | Uint32Array | Uint16Array | Float64Array>(a: A, make: (len: number) => A): A => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.gs = grown(this.gs, (len) => new Int32Array(len));
    this.starts = grown(this.starts, (len) => new Float64Array(len));
    this.ends = grown(this.ends, (len) => new Float64Array(len));
    this.rules = grown(this.rules, (len) => new Uint16Array(len));
    this.texts = grown(this.texts, (len) => new Uint32Array(len));
  }
}
