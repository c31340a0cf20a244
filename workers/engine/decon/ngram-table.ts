// An exact set of word n-grams: open addressing on a 32-bit hash of the token ids, every probe verified against the stored ids.
/*
 * Zero false positives by construction: words become ids through an exact string vocabulary, each n-gram's n ids
 * are stored, and a lookup only matches when all n ids are equal. The hash only chooses the slot.
 * Memory: 4n bytes of ids + 4 bytes of hash + ≤ 16 bytes of slots (load ≤ 1/2, 4-byte slots) per distinct n-gram.
 */
export class NgramTable {
  readonly n: number;
  ids: Uint32Array;
  hashes: Uint32Array;
  count = 0;
  #slots: Int32Array;
  #mask: number;

  constructor(n: number, capacity = 1024) {
    this.n = n;
    this.ids = new Uint32Array(capacity * n);
    this.hashes = new Uint32Array(capacity);
    let size = 1024;
    while (size < capacity * 2) size *= 2;
    this.#slots = new Int32Array(size).fill(-1);
    this.#mask = size - 1;
  }

  /** Bytes held, for the memory-per-n-gram figure. */
  get bytes(): number {
    return this.ids.byteLength + this.hashes.byteLength + this.#slots.byteLength;
  }

  /** The n-gram's index (existing or newly added). */
  insert(seq: ArrayLike<number>, off: number): number {
    const h = hashIds(seq, off, this.n);
    const found = this.#probe(seq, off, h);
    if (found >= 0) return this.#slots[found] as number;
    if (this.count === this.hashes.length) this.#grow();
    const idx = this.count++;
    for (let k = 0; k < this.n; k++) this.ids[idx * this.n + k] = seq[off + k] as number;
    this.hashes[idx] = h;
    if (this.count * 2 > this.#slots.length) this.#rehash(this.#slots.length * 2);
    else this.#slots[~found] = idx;
    return idx;
  }

  /** Index of the n-gram `seq[off..off+n)`, or -1. */
  find(seq: ArrayLike<number>, off: number): number {
    const s = this.#probe(seq, off, hashIds(seq, off, this.n));
    return s >= 0 ? (this.#slots[s] as number) : -1;
  }

  /** Rebuilds the slots from stored ids (after loading a saved index). */
  static fromIds(n: number, ids: Uint32Array, count: number): NgramTable {
    const t = new NgramTable(n, Math.max(1, count));
    t.ids = ids;
    t.count = count;
    for (let i = 0; i < count; i++) t.hashes[i] = hashIds(ids, i * n, n);
    t.#rehash(t.#slots.length);
    return t;
  }

  /** The slot holding the n-gram (≥ 0), or ~slot of the empty slot where it would go. */
  #probe(seq: ArrayLike<number>, off: number, h: number): number {
    const n = this.n;
    for (let s = h & this.#mask; ; s = (s + 1) & this.#mask) {
      const idx = this.#slots[s] as number;
      if (idx < 0) return ~s;
      if (this.hashes[idx] !== h) continue;
      let k = 0;
      const base = idx * n;
      while (k < n && this.ids[base + k] === seq[off + k]) k++;
      if (k === n) return s;
    }
  }

  #grow(): void {
    const cap = this.hashes.length * 2;
    const ids = new Uint32Array(cap * this.n);
    ids.set(this.ids);
    const hashes = new Uint32Array(cap);
    hashes.set(this.hashes);
    this.ids = ids;
    this.hashes = hashes;
  }

  #rehash(size: number): void {
    this.#slots = new Int32Array(size).fill(-1);
    this.#mask = size - 1;
    for (let i = 0; i < this.count; i++) {
      let s = (this.hashes[i] as number) & this.#mask;
      while ((this.#slots[s] as number) >= 0) s = (s + 1) & this.#mask;
      this.#slots[s] = i;
    }
  }
}

/** murmur3-style mix of n ids (never 0 issues: slots are found by index, not by hash value). */
export function hashIds(seq: ArrayLike<number>, off: number, n: number): number {
  let h = 0x9747b28c ^ n;
  for (let k = 0; k < n; k++) {
    let x = Math.imul(seq[off + k] as number, 0xcc9e2d51);
    x = Math.imul((x << 15) | (x >>> 17), 0x1b873593);
    h ^= x;
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
