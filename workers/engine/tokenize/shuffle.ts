// Seeded randomness for the tokenize stage: file order, batch shuffles, ring sampling — reproducible from `seed`.
import { createHash } from 'node:crypto';

/**
 * sfc32 seeded from sha256(`seed:stream`): every stream (the file shuffle, each output group) draws
 * its own sequence, so a group's output does not depend on which process runs it. Dolma uses
 * Python's `random`, whose per-process state is not reproducible, so orders are Assay's own.
 */
export function seededRandom(seed: number, stream: string): () => number {
  const h = createHash('sha256').update(`${seed}:${stream}`).digest();
  let a = h.readUInt32LE(0);
  let b = h.readUInt32LE(4);
  let c = h.readUInt32LE(8);
  let d = h.readUInt32LE(12);
  return () => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

/** In-place Fisher–Yates from the end, the loop of Python's `random.shuffle`. */
export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const t = items[i] as T;
    items[i] = items[j] as T;
    items[j] = t;
  }
  return items;
}

/** An index drawn with probability proportional to `weights` (Dolma's `sample_ring_prop`). */
export function weightedIndex(weights: readonly number[], random: () => number): number {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total <= 0) return Math.floor(random() * weights.length);
  let x = random() * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i] as number;
    if (x < 0) return i;
  }
  return weights.length - 1;
}
