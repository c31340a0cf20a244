// Test corpora for MinHash: random English-like documents and near-duplicates at a chosen 5-gram Jaccard similarity.

const SYLLABLES = 'ka lo mi ren tas vo ple dri sun gar nel bix tor fen qua zim hol par wen dus'.split(' ');

export class Rng {
  constructor(private s: number) {}
  next(): number {
    this.s ^= this.s << 13;
    this.s ^= this.s >>> 17;
    this.s ^= this.s << 5;
    return (this.s >>> 0) / 0x100000000;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

/** A word from a ~8000-word vocabulary, so 5-grams of different documents practically never coincide. */
export function word(rng: Rng): string {
  const n = 2 + rng.int(2);
  let w = '';
  for (let i = 0; i < n; i++) w += SYLLABLES[rng.int(SYLLABLES.length)];
  return w;
}

export function document(rng: Rng, words: number): string[] {
  return Array.from({ length: words }, () => word(rng));
}

/** Replaces `edits` random words; each edit changes up to n_grams shingles. */
export function editWords(rng: Rng, words: readonly string[], edits: number): string[] {
  const out = [...words];
  for (let e = 0; e < edits; e++) out[rng.int(out.length)] = word(rng);
  return out;
}

/** Paragraphs (of `size` words) in a shuffled order: only shingles across paragraph joins change. */
export function shuffleParagraphs(rng: Rng, words: readonly string[], size: number): string[] {
  const paras: string[][] = [];
  for (let i = 0; i < words.length; i += size) paras.push(words.slice(i, i + size));
  for (let i = paras.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [paras[i], paras[j]] = [paras[j] as string[], paras[i] as string[]];
  }
  return paras.flat();
}

export function shingleSet(words: readonly string[], n = 5): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i + n <= words.length; i++) s.add(words.slice(i, i + n).join(' '));
  return s;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** Probability that a pair of Jaccard similarity s shares at least one of `buckets` bands of `rows` hashes. */
export const detectionProbability = (s: number, buckets = 14, rows = 8): number => 1 - (1 - s ** rows) ** buckets;
