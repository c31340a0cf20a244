// Bloom filter sizing: Dolma's formulas (src/bloom_filter.rs:27-60) and the geometry Assay actually builds.
import { AssayError } from '../../errors.js';

/** Dolma `optimal_number_of_hashers`: ceil((bits / n) · ln 2). */
export function optimalNumberOfHashers(sizeInBytes: number, expectedElements: number): number {
  return Math.ceil(((sizeInBytes * 8) / expectedElements) * Math.LN2);
}

/** Dolma `prob_of_false_positive`: (1 − (1 − 1/m)^(k·n))^k with m = bytes · 8. */
export function probOfFalsePositive(sizeInBytes: number, expectedElements: number, numHashers: number): number {
  const m = sizeInBytes * 8;
  return Math.pow(1 - Math.pow(1 - 1 / m, numHashers * expectedElements), numHashers);
}

/** Dolma `suggest_size_in_bytes`: powers of two from 1 MiB until the false-positive rate is reached. */
export function suggestSizeInBytes(expectedElements: number, desiredFalsePositiveRate: number): number {
  let size = 1024 * 1024;
  while (size < Number.MAX_SAFE_INTEGER / 2 && probOfFalsePositive(size, expectedElements, optimalNumberOfHashers(size, expectedElements)) > desiredFalsePositiveRate) {
    size *= 2;
  }
  return size;
}

export interface BloomGeometry {
  /** Number of hash functions (seeds). */
  k: number;
  /** Number of bits, a multiple of 32. */
  m: number;
}

/** Largest bit array one typed array holds (2^32 − 1 words would be 16 GiB; Node buffers stop at 4 GiB). */
export const MAX_BITS = 2 ** 35;
export const MAX_K = 32;

/** Dolma's smallest filter (1 MiB), kept as a floor: small configs stay safe when keys outnumber documents. */
export const MIN_BITS = 8 * 1024 * 1024;

/**
 * The filter a config asks for. `size_in_bytes` is honoured as given (with Dolma's k). Otherwise —
 * a deviation from Dolma — the size is the optimum −n·ln p / (ln 2)² bits rounded up to a 32-bit
 * word (at least Dolma's 1 MiB), not the next power of two ≥ 1 MiB: Dolma's doubling wastes up to
 * half the memory and misses the configured rate by up to 2× in bits. The 1 MiB floor stays because
 * paragraph and n-gram modes insert many keys per "document", which a tiny exact-size filter
 * would not survive (fixture D3: 1,000 docs configured, ~20,000 n-grams inserted). k is Dolma's
 * ceil((m/n)·ln 2), capped at 32 (the floor alone gives 1,000 docs k = 5,815 in Dolma).
 */
export function geometryFor(opts: { sizeInBytes: number; estimatedDocCount: number; falsePositiveRate: number }): BloomGeometry {
  const n = opts.estimatedDocCount;
  if (!(n > 0)) throw new AssayError('CONFIG', 'estimated_doc_count must be > 0 to size a new bloom filter', { field: 'bloom_filter.estimated_doc_count' });
  let m: number;
  if (opts.sizeInBytes > 0) {
    m = opts.sizeInBytes * 8;
  } else {
    const p = opts.falsePositiveRate;
    if (!(p > 0 && p < 1)) throw new AssayError('CONFIG', 'desired_false_positive_rate must be in (0, 1)', { field: 'bloom_filter.desired_false_positive_rate' });
    m = Math.ceil((-n * Math.log(p)) / (Math.LN2 * Math.LN2));
  }
  m = Math.ceil(m / 32) * 32;
  if (opts.sizeInBytes === 0) m = Math.max(m, MIN_BITS);
  else m = Math.max(32, m);
  if (m > MAX_BITS) {
    throw new AssayError('CONFIG', `a bloom filter of ${(m / 8 / 2 ** 30).toFixed(1)} GiB is more than Assay can hold (4 GiB); lower estimated_doc_count or raise the false-positive rate`, { field: 'bloom_filter' });
  }
  // Capped: past 32 hashes the false-positive rate is already below 2^-32 and every probe costs more.
  const k = Math.min(MAX_K, Math.max(1, Math.ceil((m / n) * Math.LN2)));
  return { k, m };
}

/** Expected false-positive rate of a filter with `fill` of its bits set: fill^k. */
export const falsePositiveRateAt = (fill: number, k: number): number => Math.pow(fill, k);
