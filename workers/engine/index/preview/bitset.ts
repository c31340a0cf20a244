// Fixed-size bitsets over document numbers: word-at-a-time set algebra for the per-rule breakdown.

export class Bitset {
  readonly words: Uint32Array;

  constructor(readonly size: number, words?: Uint32Array) {
    this.words = words ?? new Uint32Array((size + 31) >>> 5);
  }

  static from(size: number, docs: Iterable<number>): Bitset {
    const b = new Bitset(size);
    for (const g of docs) b.set(g);
    return b;
  }

  set(g: number): void {
    this.words[g >>> 5]! |= 1 << (g & 31);
  }

  clear(g: number): void {
    this.words[g >>> 5]! &= ~(1 << (g & 31));
  }

  has(g: number): boolean {
    return ((this.words[g >>> 5] as number) & (1 << (g & 31))) !== 0;
  }

  clone(): Bitset {
    return new Bitset(this.size, this.words.slice());
  }

  and(o: Bitset): Bitset {
    const w = this.words.slice();
    for (let i = 0; i < w.length; i++) w[i]! &= o.words[i] as number;
    return new Bitset(this.size, w);
  }

  or(o: Bitset): Bitset {
    const w = this.words.slice();
    for (let i = 0; i < w.length; i++) w[i]! |= o.words[i] as number;
    return new Bitset(this.size, w);
  }

  andNot(o: Bitset): Bitset {
    const w = this.words.slice();
    for (let i = 0; i < w.length; i++) w[i]! &= ~(o.words[i] as number);
    return new Bitset(this.size, w);
  }

  count(): number {
    let n = 0;
    for (let i = 0; i < this.words.length; i++) n += popcount(this.words[i] as number);
    return n;
  }

  /** Calls `f` for every member, ascending. */
  forEach(f: (g: number) => void): void {
    const w = this.words;
    for (let i = 0; i < w.length; i++) {
      let x = w[i] as number;
      while (x !== 0) {
        const low = x & -x;
        f((i << 5) + (31 - Math.clz32(low)));
        x ^= low;
      }
    }
  }

  /** Members from the `offset`-th on, at most `limit` of them. */
  slice(offset: number, limit: number): number[] {
    const out: number[] = [];
    let seen = 0;
    const w = this.words;
    for (let i = 0; i < w.length && out.length < limit; i++) {
      let x = w[i] as number;
      const c = popcount(x);
      if (seen + c <= offset) {
        seen += c;
        continue;
      }
      while (x !== 0 && out.length < limit) {
        const low = x & -x;
        if (seen++ >= offset) out.push((i << 5) + (31 - Math.clz32(low)));
        x ^= low;
      }
    }
    return out;
  }
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
