// MinHash permutations exactly as numpy's `RandomState(seed).randint(low, P, size, dtype=uint64)` (spec §11.3).

/** DataTrove's `_mersenne_prime`, 2^61 - 1. */
export const MERSENNE_PRIME = (1n << 61n) - 1n;

/** numpy's legacy MT19937, seeded with `init_genrand` (an integer seed, not `init_by_array`). */
export class MT19937 {
  readonly #mt = new Uint32Array(624);
  #i = 624;

  constructor(seed: number) {
    if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError('seed must be an integer in [0, 2^32)');
    const mt = this.#mt;
    mt[0] = seed >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] as number;
      mt[i] = (Math.imul(1812433253, (prev ^ (prev >>> 30)) >>> 0) + i) >>> 0;
    }
  }

  u32(): number {
    const mt = this.#mt;
    if (this.#i >= 624) {
      for (let k = 0; k < 624; k++) {
        const y = ((mt[k] as number) & 0x80000000) | ((mt[(k + 1) % 624] as number) & 0x7fffffff);
        mt[k] = ((mt[(k + 397) % 624] as number) ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0)) >>> 0;
      }
      this.#i = 0;
    }
    let y = mt[this.#i++] as number;
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** numpy's legacy `next_uint64`: the high word is drawn first. */
  u64(): bigint {
    const hi = BigInt(this.u32());
    return (hi << 32n) | BigInt(this.u32());
  }

  /** `randint(low, high, dtype=uint64)` for one value: masked rejection sampling over `high - 1 - low`. */
  randintU64(low: bigint, high: bigint): bigint {
    const rng = high - 1n - low;
    if (rng === 0n) return low;
    let mask = rng;
    for (let s = 1n; s <= 32n; s <<= 1n) mask |= mask >> s;
    for (;;) {
      // numpy draws 32-bit words when the range fits in 32 bits; MinHash ranges never do, but stay exact.
      const v = (rng <= 0xffffffffn ? BigInt(this.u32()) : this.u64()) & mask;
      if (v <= rng) return low + v;
    }
  }
}

export interface Permutations {
  a: bigint[];
  b: bigint[];
}

/** `a = randint(1, P, n)` first, then `b = randint(0, P, n)` from the same generator. */
export function minhashPermutations(seed: number, numHashes: number): Permutations {
  const gen = new MT19937(seed);
  const a: bigint[] = [];
  const b: bigint[] = [];
  for (let i = 0; i < numHashes; i++) a.push(gen.randintU64(1n, MERSENNE_PRIME));
  for (let i = 0; i < numHashes; i++) b.push(gen.randintU64(0n, MERSENNE_PRIME));
  return { a, b };
}
