// The predictor's lookup tables over the model's dictionary: words by their UTF-8 bytes, pruned n-gram buckets.
import { hashStep, HASH_START } from '../../../text/token-cache.js';

/**
 * Dictionary word → id, looked up from a span of a line's UTF-8 bytes with the hash the tokenizer has already
 * computed for that span (`hashStep` per byte), so a new token needs no string to find its word row.
 */
export class WordTable {
  private readonly mask: number;
  private readonly shift: number;
  /** Per slot: 1 + the word's index in `at`, 0 when empty; and its hash. */
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;
  private readonly at: Int32Array;
  private readonly ids: Int32Array;
  private readonly bytes: Uint8Array;
  private count = 0;
  private used = 0;

  /** Room for `size` words of `bytes` UTF-8 bytes in all. */
  constructor(size: number, bytes: number) {
    let bits = 4;
    while (2 ** bits < size * 2) bits++;
    this.mask = 2 ** bits - 1;
    this.shift = 32 - bits;
    const cap = 2 ** bits;
    this.slots = new Int32Array(cap);
    this.hashes = new Int32Array(cap);
    this.at = new Int32Array(size + 1);
    this.ids = new Int32Array(size);
    this.bytes = new Uint8Array(bytes);
  }

  /** Adds `src[start, end)` with id `id`; a word already present takes the new id (as `Map.set` would). */
  set(src: Uint8Array, start: number, end: number, id: number): void {
    let h = HASH_START;
    for (let i = start; i < end; i++) h = hashStep(h, src[i] as number);
    const slot = this.slot(src, start, end, h);
    if (this.slots[slot] !== 0) {
      this.ids[(this.slots[slot] as number) - 1] = id;
      return;
    }
    for (let i = start; i < end; i++) this.bytes[this.used++] = src[i] as number;
    this.at[this.count + 1] = this.used;
    this.ids[this.count++] = id;
    this.slots[slot] = this.count;
    this.hashes[slot] = h;
  }

  /** The words in the order added: their UTF-8 bytes back to back, where each starts (and the last ends), their ids. */
  get entries(): { readonly bytes: Uint8Array; readonly at: Int32Array; readonly ids: Int32Array } {
    return { bytes: this.bytes.subarray(0, this.used), at: this.at.subarray(0, this.count + 1), ids: this.ids.subarray(0, this.count) };
  }

  /** The id of the word `line[start, end)` (hash `h`), or -1. */
  get(line: Uint8Array, start: number, end: number, h: number): number {
    const e = this.slots[this.slot(line, start, end, h)] as number;
    return e === 0 ? -1 : (this.ids[e - 1] as number);
  }

  /** The slot holding the word, or the empty slot where it would go. */
  private slot(line: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    for (let i = Math.imul(h, 0x9e3779b1) >>> this.shift; ; i = (i + 1) & this.mask) {
      const e = this.slots[i] as number;
      if (e === 0) return i;
      if (this.hashes[i] !== h) continue;
      const from = this.at[e - 1] as number;
      if ((this.at[e] as number) - from !== len) continue;
      let k = 0;
      while (k < len && this.bytes[from + k] === line[start + k]) k++;
      if (k === len) return i;
    }
  }
}

/**
 * Bucket → row offset, open addressing in one typed array: every character n-gram of a new word is looked up.
 * Most n-grams are pruned away, so a bit per bucket (256 KB for lid.176's 2M, small enough to stay in cache where
 * the table does not) answers most lookups without probing.
 */
export class BucketTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Bit b set when bucket b has a row; null above 2^28 buckets (then every lookup probes). */
  private readonly bits: Int32Array | null;

  /** `size` entries, of buckets in [0, `buckets`): the only keys fastText looks up. */
  constructor(size: number, buckets: number) {
    let cap = 16;
    while (cap < size * 2) cap *= 2;
    this.mask = cap - 1;
    this.slots = new Int32Array(cap * 2).fill(-1);
    this.bits = buckets <= 2 ** 28 ? new Int32Array((Math.max(buckets, 0) + 31) >>> 5) : null;
  }

  /** The largest value set (-1 while empty). */
  maxValue = -1;

  /** The table of a model file's `pruneidx`: (bucket, row) pairs, set in order. */
  static fromPairs(pairs: Int32Array, buckets: number): BucketTable {
    const t = new BucketTable(pairs.length / 2, buckets);
    for (let i = 0; i + 1 < pairs.length; i += 2) t.set(pairs[i] as number, pairs[i + 1] as number);
    return t;
  }

  set(key: number, value: number): void {
    const { bits } = this;
    if (value > this.maxValue) this.maxValue = value;
    const w = key >>> 5;
    if (bits !== null && key >= 0 && w < bits.length) bits[w] = (bits[w] as number) | (1 << (key & 31));
    let i = Math.imul(key, 0x9e3779b1) & this.mask;
    while (this.slots[i * 2] !== -1 && this.slots[i * 2] !== key) i = (i + 1) & this.mask;
    this.slots[i * 2] = key;
    this.slots[i * 2 + 1] = value;
  }

  /**
   * The table as `get` reads it, for a port of the lookup (bench/kernel): `slots` holds key, value pairs (key -1:
   * empty) probed linearly from `imul(key, 0x9e3779b1) & mask`; bit b of `bits` is set when bucket b has a row.
   */
  get layout(): { readonly slots: Int32Array; readonly mask: number; readonly bits: Int32Array | null } {
    return { slots: this.slots, mask: this.mask, bits: this.bits };
  }

  /** The value of a bucket in [0, `buckets`), or -1. */
  get(key: number): number {
    const { bits } = this;
    if (bits !== null && ((bits[key >>> 5] as number) & (1 << (key & 31))) === 0) return -1;
    for (let i = Math.imul(key, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const k = this.slots[i * 2] as number;
      if (k === key) return this.slots[i * 2 + 1] as number;
      if (k === -1) return -1;
    }
  }
}

