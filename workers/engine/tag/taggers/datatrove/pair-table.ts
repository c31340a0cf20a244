// An open-addressing hash map from pairs of 32-bit ints to dense ids, several times faster than Map for n-gram counting.

export class PairTable {
  /** Per slot: key a, key b, id + 1 (0 = empty), side by side so a probe reads one cache line. */
  private slots = new Int32Array(48);
  private mask = 15;
  size = 0;

  /** Empties the table with room for `capacity` entries; its array is kept for the next document when large enough. */
  reset(capacity: number): this {
    let cap = 16;
    while (cap < capacity * 2) cap *= 2;
    if (this.slots.length < 3 * cap) this.slots = new Int32Array(3 * cap);
    else this.slots.fill(0, 0, 3 * cap);
    this.mask = cap - 1;
    this.size = 0;
    return this;
  }

  /** The id stored for (a, b); when absent, stores `size` (the next dense id) and returns -1. */
  getOrAdd(a: number, b: number): number {
    const s = this.slots;
    let h = (Math.imul(a, 0x9e3779b1) + b) | 0;
    h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
    let i = (h ^ (h >>> 13)) & this.mask;
    for (;;) {
      const o = 3 * i;
      const v = s[o + 2] as number;
      if (v === 0) {
        s[o] = a;
        s[o + 1] = b;
        s[o + 2] = ++this.size;
        return -1;
      }
      if (s[o] === a && s[o + 1] === b) return v - 1;
      i = (i + 1) & this.mask;
    }
  }
}
