// A Bloom filter over xxhash64 with k seeds: one 64-bit hash per seed, bit index = hash mod m.
import type { XXHashAPI } from 'xxhash-wasm';
import { deriveSeeds, loadXxhash } from './hash.js';
import { falsePositiveRateAt, type BloomGeometry } from './sizing.js';

export class BloomFilter {
  readonly k: number;
  /** Number of bits (a multiple of 32). */
  readonly m: number;
  readonly seeds: readonly bigint[];
  readonly words: Uint32Array;
  /** Keys inserted since creation (including earlier runs when loaded from a file). */
  insertions: number;
  readonly #mBig: bigint;
  readonly #h64: XXHashAPI['h64Raw'];
  /** Bit indexes of the key last given to `locate`. */
  readonly #idx: Float64Array;

  constructor(api: XXHashAPI, geometry: BloomGeometry, seeds?: readonly bigint[], words?: Uint32Array, insertions = 0) {
    this.k = geometry.k;
    this.m = geometry.m;
    this.seeds = seeds ?? deriveSeeds(geometry.k);
    this.words = words ?? new Uint32Array(geometry.m / 32);
    this.insertions = insertions;
    this.#mBig = BigInt(geometry.m);
    this.#h64 = api.h64Raw;
    this.#idx = new Float64Array(geometry.k);
  }

  static async create(geometry: BloomGeometry): Promise<BloomFilter> {
    return new BloomFilter(await loadXxhash(), geometry);
  }

  /**
   * Hashes an encoded key with every seed and remembers its bit indexes for `has`/`add`.
   * Returns the first seed's full 64-bit hash, which Dolma's partitioning uses (`h0 % partitions`).
   */
  locate(key: Uint8Array): bigint {
    let h0 = 0n;
    for (let i = 0; i < this.k; i++) {
      const h = this.#h64(key, this.seeds[i]);
      if (i === 0) h0 = h;
      this.#idx[i] = Number(h % this.#mBig);
    }
    return h0;
  }

  /** Whether every bit of the located key is set. */
  has(): boolean {
    const w = this.words;
    for (let i = 0; i < this.k; i++) {
      const b = this.#idx[i] as number;
      if (((w[Math.floor(b / 32)] as number) & (1 << (b % 32))) === 0) return false;
    }
    return true;
  }

  /** Sets the located key's bits. */
  add(): void {
    const w = this.words;
    for (let i = 0; i < this.k; i++) {
      const b = this.#idx[i] as number;
      const at = Math.floor(b / 32);
      w[at] = (w[at] as number) | (1 << (b % 32));
    }
    this.insertions++;
  }

  /** Test-and-set in one call; true when the key was (probably) present already. */
  checkAndAdd(key: Uint8Array): boolean {
    this.locate(key);
    if (this.has()) return true;
    this.add();
    return false;
  }

  /** Share of bits set. */
  fillRatio(): number {
    let ones = 0;
    for (const v of this.words) ones += popcount(v);
    return ones / this.m;
  }

  stats(): BloomStats {
    const fill = this.fillRatio();
    return { k: this.k, m: this.m, sizeBytes: this.m / 8, insertions: this.insertions, fillRatio: fill, estimatedFalsePositiveRate: falsePositiveRateAt(fill, this.k) };
  }
}

export interface BloomStats {
  k: number;
  m: number;
  sizeBytes: number;
  insertions: number;
  fillRatio: number;
  /** fill^k: the chance that a new key looks present now. */
  estimatedFalsePositiveRate: number;
}

function popcount(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
