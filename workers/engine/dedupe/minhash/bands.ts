// Band keys for LSH: each bucket's `hashes_per_bucket` signature values folded to a 64-bit key (two independent 32-bit lanes).

/**
 * Writes, for each of the `buckets` bands of a signature (as u32 words, low then high per value), a 64-bit
 * key to `out[2b]` (low lane) and `out[2b + 1]` (high lane). Equal bands always give equal keys; distinct
 * bands collide with probability ~2^-64 per pair (the values are ~61 random bits each), which is the only
 * way Assay's buckets differ from DataTrove's exact 8-value comparison.
 */
export function bandKeys(words: Uint32Array, buckets: number, perBucket: number, out: Uint32Array): void {
  const span = perBucket * 2;
  for (let b = 0; b < buckets; b++) {
    let h1 = 0x9747b28c ^ b;
    let h2 = 0x1b873593 ^ Math.imul(b + 1, 0x85ebca6b);
    for (let i = b * span, end = i + span; i < end; i++) {
      const w = words[i] as number;
      h1 = Math.imul(rotl(h1 ^ Math.imul(w, 0xcc9e2d51), 13), 5) + 0xe6546b64;
      h2 = Math.imul(rotl(h2 ^ Math.imul(w, 0x1b873593), 15), 0x85ebca6b) + 0xc2b2ae35;
      h2 ^= h1 >>> 7;
    }
    out[2 * b] = fmix(h1 ^ span) >>> 0;
    out[2 * b + 1] = fmix(h2 ^ Math.imul(span, 31)) >>> 0;
  }
}

const rotl = (x: number, r: number): number => (x << r) | (x >>> (32 - r));

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
