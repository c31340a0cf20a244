// gopher_v1's n-gram statistics against gopher.py's Counter arithmetic written out naively, on random repetitive texts.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../native-addon.js';
import { ngramStats, ngramStatsJs } from './ngrams.js';

/** Counter over word tuples: most_common(1) (first inserted among ties), Σ count·chars over repeats and over all. */
function naive(words: string[], maxN: number) {
  const out = [];
  for (let n = 2; n <= maxN; n++) {
    const counts = new Map<string, { c: number; chars: number }>();
    for (let i = 0; i + n <= words.length; i++) {
      const g = words.slice(i, i + n);
      const e = counts.get(g.join('\u0000')) ?? { c: 0, chars: g.reduce((a, x) => a + x.length, 0) };
      e.c++;
      counts.set(g.join('\u0000'), e);
    }
    if (counts.size === 0) break;
    let best: { c: number; chars: number } | undefined;
    let dup = 0;
    let total = 0;
    for (const e of counts.values()) {
      if (best === undefined || e.c > best.c) best = e;
      total += e.c * e.chars;
      if (e.c > 1) dup += e.c * e.chars;
    }
    out.push({ n, mostCommonChars: best!.c * best!.chars, duplicateChars: dup, totalChars: total });
  }
  return out;
}

function ids(words: string[]): [Int32Array, Int32Array] {
  const map = new Map<string, number>();
  const lens: number[] = [];
  const out = words.map((w) => {
    let id = map.get(w);
    if (id === undefined) {
      map.set(w, (id = map.size));
      lens.push(w.length);
    }
    return id;
  });
  return [Int32Array.from(out), Int32Array.from(lens)];
}

// `ngramStats` goes through the C addon where it is built (native/ngrams.c); `ngramStatsJs` is the JavaScript.
describe.each([
  ['ngramStats', ngramStats],
  ['ngramStatsJs', ngramStatsJs],
])('gopher_v1 n-grams: %s', (_, ngramStats) => {
  it('equal Counter arithmetic for every order, from all-unique to all-repeated texts', () => {
    let s = 1;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let t = 0; t < 200; t++) {
      const vocab = 1 + Math.floor(next() * (t % 4 === 0 ? 400 : 12));
      const words = Array.from({ length: Math.floor(next() * 120) }, () => `w${Math.floor(next() * vocab)}`.repeat(1 + (t % 3)));
      const [wordIds, wordLen] = ids(words);
      expect(ngramStats(wordIds, wordLen, 10)).toEqual(naive(words, 10));
    }
  });
});

describe.runIf(nativeAddon() !== null)('gopher_v1 n-grams in C', () => {
  it('refuses word ids outside the lengths and orders it has no room for, naming the argument', () => {
    const addon = nativeAddon()!;
    const out = new Float64Array(36);
    expect(addon.ngramStats(Int32Array.of(0, 1, 0, 1), Int32Array.of(2, 3), 10, out)).toBe(3);
    expect([...out.subarray(0, 4)]).toEqual([2, 10, 10, 15]);
    expect(() => addon.ngramStats(Int32Array.of(0, 2), Int32Array.of(2, 3), 10, out)).toThrow(/word id is outside/);
    expect(() => addon.ngramStats(Int32Array.of(0, -1), Int32Array.of(2, 3), 10, out)).toThrow(/word id is outside/);
    expect(() => addon.ngramStats(Int32Array.of(0), Int32Array.of(2), 11, out)).toThrow(/out/);
    expect(() => addon.ngramStats(Int32Array.of(0), Int32Array.of(2), 1, out)).toThrow(/maxN/);
  });
});
