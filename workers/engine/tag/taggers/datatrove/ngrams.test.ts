// The n-gram counters and the word numbering against DataTrove's definitions written out naively, on random word lists.
import { describe, expect, it } from 'vitest';
import { cpLength } from '../../../text/python.js';
import { splitIntoWords } from '../../../text/words.js';
import { allDuplicateChars, RUN } from './dup-ngrams.js';
import { topNgramChars } from './ngrams.js';
import { wordIdsFor, wordIdsOf } from './word-ids.js';

/** `find_all_duplicate(words, n)` as gopher_repetition_filter.py has it: joined with no separator, a repeat skips n. */
function naiveAllDuplicate(words: string[], n: number): number {
  const seen = new Set<string>();
  let repeated = 0;
  let idx = 0;
  while (idx < words.length - n + 1) {
    const s = words.slice(idx, idx + n).join('');
    if (seen.has(s)) {
      repeated += words.slice(idx, idx + n).reduce((a, w) => a + cpLength(w), 0);
      idx += n;
    } else {
      seen.add(s);
      idx += 1;
    }
  }
  return repeated;
}

// Short words that concatenate into each other, words around RUN characters (so windows both pass and miss the run
// filter), astral and lone surrogates, the empty word.
const VOCAB = ['a', 'b', 'ab', 'ba', 'the', 'cat', 'th', 'ecat', '😀', 'é', 'x'.repeat(40), '', 'abcdefgh', 'abcdefghabcdefgh', 'bcdefgha', 'x'.repeat(RUN - 1), 'x'.repeat(RUN), '\ud800', '\udc00'];

function randomWords(seed: number, count: number): string[] {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const vocab = VOCAB.slice(0, 2 + Math.floor(next() * (VOCAB.length - 2)));
  if (next() < 0.3) vocab.push(...VOCAB.slice(12));
  return Array.from({ length: count }, () => vocab[Math.floor(next() * vocab.length)] as string);
}

describe('gopher_repetition n-grams', () => {
  it('word ids: equal words share an id, first-seen order, code points and characters end to end', () => {
    for (let seed = 0; seed < 40; seed++) {
      const words = randomWords(seed, seed * 5);
      const w = wordIdsOf(words);
      expect(w.count).toBe(words.length);
      expect(String.fromCharCode(...w.chars)).toBe(words.join(''));
      const firstSeen = [...new Set(words)];
      expect(w.vocab).toBe(firstSeen.length);
      words.forEach((word, i) => {
        const id = w.ids[i]!;
        expect(firstSeen[id]).toBe(word);
        expect(w.cpLens[id]).toBe(cpLength(word));
        expect(w.first[id]).toBe(words.indexOf(word));
        expect(String.fromCharCode(...w.chars.subarray(w.starts[i], w.starts[i + 1]))).toBe(word);
      });
    }
  });

  it('word ids of a text are its spaCy words', () => {
    for (const text of ['', ' ', 'Hello, world!  It\'s\r\n\r\n a test 😀 \u00a0é.', 'a a a\n\nb\tb 1.5 U.S. ---']) {
      const w = wordIdsFor(text, 'eng', 'head');
      const words = splitIntoWords(text);
      expect(w.count).toBe(words.length);
      expect(String.fromCharCode(...w.chars)).toBe(words.join(''));
    }
  });

  it('find_all_duplicate: the same characters as the naive definition for every n', () => {
    for (let seed = 0; seed < 120; seed++) {
      const words = randomWords(seed, 1 + (seed * 7) % 150);
      const ns = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
      expect(allDuplicateChars(wordIdsOf(words), ns), `seed ${seed}`).toEqual(ns.map((n) => naiveAllDuplicate(words, n)));
    }
  });

  it('find_all_duplicate: long repeated passages, and equal characters under different word boundaries', () => {
    const passage = 'the quick brown fox jumps over the lazy dog again and again'.split(' ');
    const words = [...passage, 'x', ...passage, ...passage.slice(3), 'thequick', 'brownfox', ...passage];
    for (let n = 1; n <= 12; n++) expect(allDuplicateChars(wordIdsOf(words), [n])).toEqual([naiveAllDuplicate(words, n)]);
    const split = ['abcdefghijklmnopqrstuvwxyz', '0123', 'z', 'abcdefghijklm', 'nopqrstuvwxyz0', '123', 'z'];
    for (let n = 1; n <= 4; n++) expect(allDuplicateChars(wordIdsOf(split), [n])).toEqual([naiveAllDuplicate(split, n)]);
  });

  it('top n-gram: len(most common joined with spaces) × count, first seen among ties, for n = 1..6', () => {
    for (let seed = 0; seed < 40; seed++) {
      const words = randomWords(seed + 100, 2 + seed * 3).filter((w) => w !== '');
      const tops = topNgramChars(wordIdsOf(words), [1, 2, 3, 4, 6]);
      for (const n of [1, 2, 3, 4, 6]) {
        const counts = new Map<string, number>();
        for (let i = 0; i + n <= words.length; i++) {
          const g = words.slice(i, i + n).join(' ');
          counts.set(g, (counts.get(g) ?? 0) + 1);
        }
        let best: [string, number] | undefined;
        for (const e of counts) if (best === undefined || e[1] > best[1]) best = e;
        const want = best === undefined ? undefined : best[0].split(' ').reduce((a, w) => a + cpLength(w), n - 1) * best[1];
        expect(tops.get(n), `seed ${seed} n ${n}`).toBe(want);
      }
    }
  });
});
