// BigInt reference for the MinHash signature (numpy uint64 semantics), the ground truth the wasm kernel is tested against.
import { MERSENNE_PRIME, type Permutations } from './params.js';

const U64 = (1n << 64n) - 1n;

/** `min_i(((h_i * a_j) mod 2^64 + b_j) mod 2^64 mod P [& 0xFFFFFFFF])` for every j; `null` without shingles. */
export function referenceSignature(hashes: readonly bigint[], perm: Permutations, precision: 32 | 64): bigint[] | null {
  if (hashes.length === 0) return null;
  return perm.a.map((a, j) => {
    const b = perm.b[j] as bigint;
    let min = U64;
    for (const h of hashes) {
      let v = ((((h * a) & U64) + b) & U64) % MERSENNE_PRIME;
      if (precision === 32) v &= 0xffffffffn;
      if (v < min) min = v;
    }
    return min;
  });
}
