// random_number_v1: a uniform [0, 1) score per document, reproducible from the run seed (Dolma's is PID-seeded).
import type { TaggerSpec } from '../../types.js';
import { docOutput } from './text.js';

/**
 * cyrb53 (public-domain 53-bit string hash: two interleaved 32-bit multiply–xorshift lanes).
 * Non-cryptographic, but its output bits are well mixed, which is all sampling needs.
 */
export function cyrb53(s: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 2097152 * (h2 >>> 0) + (h1 >>> 0);
}

/**
 * The scheme: `cyrb53(`${seed}:${index}:${id}`) / 2^53`, where `seed` is `ctx.seed` (the runtime
 * derives one per input file) and `index` the 0-based position of the document among those this
 * tagger instance has tagged — its line in the file, since taggers are built once per file as in
 * Dolma. Same seed and input → same values on every run and any number of workers; another seed
 * → independent values. The index keeps repeated ids apart, the id keeps files with equal seeds apart.
 * Dolma instead seeds Python's `random` with `(pid + 1) * seed` (`taggers/sampling.py`), so its
 * values change from run to run.
 */
export function randomScore(seed: number, index: number, id: string): number {
  return cyrb53(`${seed}:${index}:${id}`) / 2 ** 53;
}

export const randomNumberV1: TaggerSpec = {
  name: 'random_number_v1',
  description: 'A uniform random number per document, reproducible from the run seed (for sampling)',
  outputs: [docOutput('random', 'Uniform pseudo-random value derived from the seed, the document position and id', '[0, 1)')],
  create(_options, ctx) {
    let index = 0;
    return { tag: (doc) => [{ start: 0, end: doc.text.length, type: 'random', score: randomScore(ctx.seed, index++, doc.id) }] };
  },
};
