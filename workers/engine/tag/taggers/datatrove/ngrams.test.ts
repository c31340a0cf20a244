// The n-gram counters against DataTrove's definitions written out naively, on random word lists with many repeats.
import { describe, expect, it } from 'vitest';
import { allDuplicateChars, prefixHashes, topNgramChars, wordTable } from './ngrams.js';

/** `find_all_duplicate(words, n)` as gopher_repetition_filter.py has it: joined with no separator, a repeat skips n. */
function naiveAllDuplicate(words: string[], n: number): number {
  const seen = new Set<string>();
  let repeated = 0;
  let idx = 0;
  while (idx < words.length - n + 1) {
    const s = words.slice(idx, idx + n).join('');
    if (seen.has(s)) {
      repeated += [...s].length;
      idx += n;
    } else {
      seen.add(s);
      idx += 1;
    }
  }
  return repeated;
}

const VOCAB = ['a', 'b', 'ab', 'ba', 'the', 'cat', 'th', 'ecat', '😀', 'é', 'x'.repeat(40), ''];

function randomWords(seed: number, count: number): string[] {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const vocab = VOCAB.slice(0, 2 + Math.floor(next() * (VOCAB.length - 2)));
  return Array.from({ length: count }, () => vocab[Math.floor(next() * vocab.length)] as string);
}

describe('gopher_repetition n-grams', () => {
  it('a window of the prefix hashes is the hash of its words folded one by one', () => {
    const words = randomWords(3, 200);
    const t = wordTable(words);
    const h = prefixHashes(t);
    for (const [i, n] of [[0, 1], [5, 7], [190, 10], [0, 200]] as const) {
      let a = 0;
      for (const w of words.slice(i, i + n)) for (let k = 0; k < w.length; k++) a = (Math.imul(a, 0x01000193) + w.charCodeAt(k)) | 0;
      const j = (i + n) * 6;
      expect((h[j]! - Math.imul(Math.imul(h[i * 6]!, h[j + 2]!), h[i * 6 + 4]!)) | 0).toBe(a);
    }
  });

  it('find_all_duplicate: the same characters as the naive definition for every n', () => {
    for (let seed = 0; seed < 60; seed++) {
      const words = randomWords(seed, 1 + (seed * 7) % 150);
      const t = wordTable(words);
      const h = prefixHashes(t);
      for (let n = 1; n <= 10; n++) expect(allDuplicateChars(t, n, h)).toBe(naiveAllDuplicate(words, n));
    }
  });

  it('top n-gram: len(most common joined with spaces) × count, first seen among ties, for n = 1..6', () => {
    for (let seed = 0; seed < 40; seed++) {
      const words = randomWords(seed + 100, 2 + seed * 3).filter((w) => w !== '');
      const tops = topNgramChars(wordTable(words), [1, 2, 3, 4, 6]);
      for (const n of [1, 2, 3, 4, 6]) {
        const counts = new Map<string, number>();
        for (let i = 0; i + n <= words.length; i++) {
          const g = words.slice(i, i + n).join(' ');
          counts.set(g, (counts.get(g) ?? 0) + 1);
        }
        let best: [string, number] | undefined;
        for (const e of counts) if (best === undefined || e[1] > best[1]) best = e;
        const want = best === undefined ? undefined : [...best[0]].length * best[1];
        expect(tops.get(n), `seed ${seed} n ${n}`).toBe(want);
      }
    }
  });
});
