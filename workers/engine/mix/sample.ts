// Deterministic sampling and repetition (`assay.sample`, `assay.repeat`): the one definition the mixer and the preview share.
import type { StreamConfig } from '../../../shared/recipe/schema.js';

/** MurmurHash3 (x86, 32-bit) of a string's UTF-16 code units: fast, portable, and the same in every process. */
function murmur32(s: string, seed: number): number {
  let h = seed >>> 0;
  const n = s.length;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    let k = (s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16)) >>> 0;
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) >>> 0;
  }
  if (i < n) {
    let k = s.charCodeAt(i);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    h ^= Math.imul(k, 0x1b873593);
  }
  return fmix32(h ^ (n * 2));
}

/** MurmurHash3's 32-bit finaliser: every input bit moves every output bit (unsigned result). */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * The document's position in [0, 1) for sampling: 52 bits from two seeded hashes of its id (as the ledger stores
 * it). Kept when below the fraction, so raising a fraction only adds documents (plans stay nested).
 */
export function sampleUnit(id: string, seed: number): number {
  const hi = murmur32(id, seed * 2 + 1) >>> 12; // 20 bits
  const lo = murmur32(id, seed * 2 + 2); // 32 bits
  return (hi * 2 ** 32 + lo) / 2 ** 52;
}

export interface Sampling {
  seed: number;
  /** Fraction kept for a document of this source (1: all). */
  fraction(source: string): number;
  /** Copies written of a kept document of this source (1: one). */
  repeat(source: string): number;
  /** True when some source has a fraction below 1. */
  samples: boolean;
  /** True when some source is written more than once. */
  repeats: boolean;
}

const byKey = (v: number | Record<string, number> | undefined, source: string): number =>
  v === undefined ? 1 : typeof v === 'number' ? v : (v[source] ?? 1);

/** The stream's sampling settings as functions of a document's source. */
export function samplingOf(stream: Pick<StreamConfig, 'assay'>): Sampling {
  const s = stream.assay?.sample;
  const r = stream.assay?.repeat;
  const values = (v: number | Record<string, number> | undefined): number[] => (v === undefined ? [] : typeof v === 'number' ? [v] : Object.values(v));
  return {
    seed: s?.seed ?? 0,
    fraction: (source) => byKey(s?.fraction, source),
    repeat: (source) => byKey(r, source),
    samples: values(s?.fraction).some((f) => f < 1),
    repeats: values(r).some((n) => n > 1),
  };
}

/** Whether a document the rules keep survives sampling. */
export const sampled = (s: Sampling, id: string, source: string): boolean => {
  const f = s.fraction(source);
  return f >= 1 || sampleUnit(id, s.seed) < f;
};

/** How the sampling rule reads in summaries, explain and the ledger. */
export function samplingLabel(stream: Pick<StreamConfig, 'assay'>): string {
  const s = stream.assay?.sample;
  if (s === undefined) return 'not sampled';
  const f = typeof s.fraction === 'number' ? String(s.fraction) : Object.entries(s.fraction).map(([k, v]) => `${k || "''"}: ${v}`).join(', ');
  return `not sampled (assay.sample fraction ${f}, seed ${s.seed})`;
}
