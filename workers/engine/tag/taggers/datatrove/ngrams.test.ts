// The n-gram counters and the word numbering against DataTrove's definitions written out naively, on random word lists.
import { describe, expect, it } from 'vitest';
import { cpLength } from '../../../text/python.js';
import { splitIntoWords } from '../../../text/words.js';
import { nativeAddon } from '../../../native-addon.js';
import { allDuplicateChars, allDuplicateCharsJs, RUN } from './dup-ngrams.js';
import { topNgramChars, topNgramCharsJs } from './ngrams.js';
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

  // `allDuplicateChars` goes through the C addon where it is built (native/dup-ngrams.c); `allDuplicateCharsJs` is the JavaScript.
  const IMPLS = [
    ['allDuplicateChars', allDuplicateChars],
    ['allDuplicateCharsJs', allDuplicateCharsJs],
  ] as const;

  it.each(IMPLS)('find_all_duplicate: the same characters as the naive definition for every n (%s)', (_, allDuplicateChars) => {
    for (let seed = 0; seed < 120; seed++) {
      const words = randomWords(seed, 1 + (seed * 7) % 150);
      const ns = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
      expect(allDuplicateChars(wordIdsOf(words), ns), `seed ${seed}`).toEqual(ns.map((n) => naiveAllDuplicate(words, n)));
    }
  });

  it.each(IMPLS)('find_all_duplicate: long repeated passages, and equal characters under different word boundaries (%s)', (_, allDuplicateChars) => {
    const passage = 'the quick brown fox jumps over the lazy dog again and again'.split(' ');
    const words = [...passage, 'x', ...passage, ...passage.slice(3), 'thequick', 'brownfox', ...passage];
    for (let n = 1; n <= 12; n++) expect(allDuplicateChars(wordIdsOf(words), [n])).toEqual([naiveAllDuplicate(words, n)]);
    const split = ['abcdefghijklmnopqrstuvwxyz', '0123', 'z', 'abcdefghijklm', 'nopqrstuvwxyz0', '123', 'z'];
    for (let n = 1; n <= 4; n++) expect(allDuplicateChars(wordIdsOf(split), [n])).toEqual([naiveAllDuplicate(split, n)]);
  });

  // `topNgramChars` goes through the C addon where it is built; `topNgramCharsJs` is the JavaScript.
  it.each([
    ['topNgramChars', topNgramChars],
    ['topNgramCharsJs', topNgramCharsJs],
  ] as const)('top n-gram: len(most common joined with spaces) × count, first seen among ties, for n = 1..6 (%s)', (_, topNgramChars) => {
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

describe.runIf(nativeAddon() !== null)('find_all_duplicate and find_top_duplicate in C', () => {
  it('refuses words outside its arrays and n below 1, naming the argument', () => {
    const addon = nativeAddon()!;
    const w = wordIdsOf(['ab', 'c', 'ab', 'c']);
    const out = new Float64Array(2);
    addon.allDuplicateChars(w.chars, w.starts, w.ids, w.cpLens, w.count, Int32Array.of(1, 2), out);
    expect([...out]).toEqual([3, 3]);
    expect(() => addon.allDuplicateChars(w.chars, w.starts, w.ids, w.cpLens, w.count + 5, Int32Array.of(1), out)).toThrow(/count/);
    expect(() => addon.allDuplicateChars(w.chars, Int32Array.of(0, 2, 9, 9, 9), w.ids, w.cpLens, w.count, Int32Array.of(1), out)).toThrow(/outside chars/);
    expect(() => addon.allDuplicateChars(w.chars, w.starts, Int32Array.of(0, 1, 7, 1), w.cpLens, w.count, Int32Array.of(1), out)).toThrow(/outside chars or lengths/);
    expect(() => addon.allDuplicateChars(w.chars, w.starts, w.ids, w.cpLens, w.count, Int32Array.of(0), out)).toThrow(/below 1/);
    addon.topNgramChars(w.ids, w.count, w.cpLens, Int32Array.of(1, 2), out);
    expect([...out]).toEqual([4, 8]);
    addon.topNgramChars(w.ids, 0, w.cpLens, Int32Array.of(1, 2), out);
    expect([...out]).toEqual([NaN, NaN]);
    expect(() => addon.topNgramChars(w.ids, 9, w.cpLens, Int32Array.of(1), out)).toThrow(/count/);
    expect(() => addon.topNgramChars(Int32Array.of(0, 5), 2, w.cpLens, Int32Array.of(1), out)).toThrow(/word id is outside/);
    expect(() => addon.topNgramChars(w.ids, w.count, w.cpLens, Int32Array.of(2, -1), out)).toThrow(/below 1/);
  });

  it('agrees with the JavaScript on documents of thousands of words (tables grown, long windows filtered by runs)', () => {
    let s = 7;
    const next = (k: number): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) % k);
    const vocab = Array.from({ length: 300 }, (_, i) => `w${i}${'x'.repeat(i % 23)}`);
    for (let t = 0; t < 6; t++) {
      const words: string[] = [];
      while (words.length < 4000 + t * 1000) {
        if (words.length > 50 && next(5) === 0) words.push(...words.slice(next(words.length - 40), words.length).slice(0, 5 + next(30)));
        else words.push(vocab[next(vocab.length)]!);
      }
      const w = wordIdsOf(words);
      const ns = [1, 2, 3, 5, 10, 25];
      expect(allDuplicateChars(w, ns)).toEqual(allDuplicateCharsJs(w, ns));
      expect(topNgramChars(w, [1, 2, 3, 4, 7, 12])).toEqual(topNgramCharsJs(w, [1, 2, 3, 4, 7, 12]));
    }
  });
});
