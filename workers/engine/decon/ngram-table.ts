// An exact set of word n-grams: open addressing on a 32-bit hash of the token ids, every probe verified against the stored ids.
/*
 * Zero false positives by construction: words become ids through an exact string vocabulary, each n-gram's n ids
 * are stored, and a lookup only matches when all n ids are equal. The hash only chooses the slot.
 * Memory per distinct n-gram: 4n bytes of ids + 4 of hash + ≤ 32 of slots (load ≤ 1/2; a slot holds hash and index, so a
 * probe is one cache line) + ≤ 2 of a one-bit-per-hash prefilter (≥ 8 bits per n-gram: most windows of a document are
 * rejected there, in a table small enough to stay in cache).
 * The hash is a polynomial over the ids, so a document's windows are hashed in O(1) per word (rolling).
 */
export class NgramTable {
  readonly n: number;
  ids: Uint32Array;
  hashes: Uint32Array;
  count = 0;
  /** Pairs (hash, index), index -1 when empty. */
  #slots: Int32Array;
  #mask: number;
  #filter: Uint32Array;
  #filterMask: number;

  constructor(n: number, capacity = 1024) {
    this.n = n;
    this.ids = new Uint32Array(capacity * n);
    this.hashes = new Uint32Array(capacity);
    this.#slots = new Int32Array(0);
    this.#mask = 0;
    this.#filter = new Uint32Array(0);
    this.#filterMask = 0;
    this.#rehash(capacity);
  }

  /** Bytes held, for the memory-per-n-gram figure. */
  get bytes(): number {
    return this.ids.byteLength + this.hashes.byteLength + this.#slots.byteLength + this.#filter.byteLength;
  }

  /** The n-gram's index (existing or newly added). */
  insert(seq: ArrayLike<number>, off: number): number {
    const h = hashIds(seq, off, this.n);
    const found = this.#probe(seq, off, h);
    if (found >= 0) return this.#slots[found + 1] as number;
    if (this.count === this.hashes.length) this.#grow();
    const idx = this.count++;
    for (let k = 0; k < this.n; k++) this.ids[idx * this.n + k] = seq[off + k] as number;
    this.hashes[idx] = h;
    if (this.count * 2 > this.#slots.length / 2) this.#rehash(this.count * 2);
    else this.#place(~found, idx, h);
    return idx;
  }

  /** Index of the n-gram `seq[off..off+n)`, or -1. */
  find(seq: ArrayLike<number>, off: number): number {
    return this.findHashed(seq, off, hashIds(seq, off, this.n));
  }

  /** `find` with the hash already computed (a document's rolling hash); the prefilter answers most misses. */
  findHashed(seq: ArrayLike<number>, off: number, h: number): number {
    const bit = h & this.#filterMask;
    if (((this.#filter[bit >>> 5] as number) & (1 << (bit & 31))) === 0) return -1;
    const s = this.#probe(seq, off, h);
    return s >= 0 ? (this.#slots[s + 1] as number) : -1;
  }

  /** Rebuilds the slots from stored ids (after loading a saved index). */
  static fromIds(n: number, ids: Uint32Array, count: number): NgramTable {
    const t = new NgramTable(n, 1);
    t.ids = ids;
    t.count = count;
    t.hashes = new Uint32Array(Math.max(1, count));
    for (let i = 0; i < count; i++) t.hashes[i] = hashIds(ids, i * n, n);
    t.#rehash(count);
    return t;
  }

  /** The slot (pair offset) holding the n-gram (≥ 0), or ~offset of the empty pair where it would go. */
  #probe(seq: ArrayLike<number>, off: number, h: number): number {
    const n = this.n;
    const hs = h | 0;
    for (let s = (h & this.#mask) * 2; ; s = (s + 2) & (this.#mask * 2 + 1)) {
      const idx = this.#slots[s + 1] as number;
      if (idx < 0) return ~s;
      if (this.#slots[s] !== hs) continue;
      let k = 0;
      const base = idx * n;
      while (k < n && this.ids[base + k] === seq[off + k]) k++;
      if (k === n) return s;
    }
  }

  #place(s: number, idx: number, h: number): void {
    this.#slots[s] = h | 0;
    this.#slots[s + 1] = idx;
    const bit = h & this.#filterMask;
    this.#filter[bit >>> 5] = (this.#filter[bit >>> 5] as number) | (1 << (bit & 31));
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

  /** Slots for at least `want` entries at load ≤ 1/2, a prefilter of ≥ 8 bits per entry, every n-gram placed again. */
  #rehash(want: number): void {
    let size = 1024;
    while (size < want * 2) size *= 2;
    this.#slots = new Int32Array(size * 2);
    for (let s = 1; s < size * 2; s += 2) this.#slots[s] = -1;
    this.#mask = size - 1;
    let bits = 1 << 15;
    while (bits < want * 8) bits *= 2;
    this.#filter = new Uint32Array(bits / 32);
    this.#filterMask = bits - 1;
    for (let i = 0; i < this.count; i++) {
      const h = this.hashes[i] as number;
      let s = (h & this.#mask) * 2;
      while ((this.#slots[s + 1] as number) >= 0) s = (s + 2) & (size * 2 - 1);
      this.#place(s, i, h);
    }
  }
}

/** Polynomial base of the rolling hash, and each id's scramble (so small consecutive ids do not add up alike). */
export const HASH_BASE = 0x01000193;
export const scramble = (id: number): number => Math.imul(id + 1, 0x9e3779b1);

/** murmur3's finaliser: spreads the polynomial sum over all 32 bits before slot and filter bits are taken. */
export function finish(x: number): number {
  let h = x ^ (x >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Σ scramble(id_k)·B^(n-1-k) mod 2^32, finished: equal to what a document's rolling hash reaches at the same window. */
export function hashIds(seq: ArrayLike<number>, off: number, n: number): number {
  let h = 0;
  for (let k = 0; k < n; k++) h = (Math.imul(h, HASH_BASE) + scramble(seq[off + k] as number)) | 0;
  return finish(h);
}
