// gopher_v1 against a literal transcription of gopher.py (Counter of word tuples), plus edge cases.
import { describe, expect, it } from 'vitest';
import { cpLength, pySplit } from '../../../text/python.js';
import { nativeAddon } from '../../../native-addon.js';
import { distinctWords, gopherCounts, gopherCountsJs } from './gopher-stats.js';
import { gopherSpans } from './gopher.js';
import { randomText, rng } from './test-helpers.js';

/** gopher.py `get_attributes` + `as_spans`, written the obvious (quadratic-memory) way. */
function reference(text: string): [string, number][] {
  const out: [string, number][] = [];
  const scalars: Record<string, number> = {};
  const len = cpLength(text);
  const names = ['character_count', 'word_count', 'median_word_length', 'symbol_to_word_ratio', 'fraction_of_words_with_alpha_character', 'required_word_count', 'fraction_of_lines_starting_with_bullet_point', 'fraction_of_lines_ending_with_ellipsis', 'fraction_of_duplicate_lines', 'fraction_of_characters_in_duplicate_lines'];
  for (const n of names) scalars[n] = 0;
  scalars['character_count'] = len;
  if (len > 0) {
    const words = pySplit(text);
    const w = words.length;
    const chars = words.reduce((s, x) => s + cpLength(x), 0);
    const lens = words.map(cpLength).sort((a, b) => a - b);
    scalars['word_count'] = w;
    scalars['median_word_length'] = w === 0 ? 0 : w % 2 ? lens[(w - 1) / 2]! : (lens[w / 2 - 1]! + lens[w / 2]!) / 2;
    scalars['symbol_to_word_ratio'] = words.filter((x) => x.includes('#') || x.includes('\u2026')).length / Math.max(w, 1);
    scalars['fraction_of_words_with_alpha_character'] = words.filter((x) => /\p{L}/u.test(x)).length / Math.max(w, 1);
    scalars['required_word_count'] = words.filter((x) => ['the', 'be', 'to', 'of', 'and', 'that', 'have', 'with'].includes(x)).length;
    const common: [string, number][] = [];
    const dups: [string, number][] = [];
    for (let n = 2; n <= 10; n++) {
      const counter = new Map<string, [number, number]>();
      for (let i = 0; i + n <= w; i++) {
        const g = words.slice(i, i + n);
        const key = g.join('\u0000');
        const e = counter.get(key) ?? [0, g.reduce((s, x) => s + cpLength(x), 0)];
        e[0]++;
        counter.set(key, e);
      }
      if (counter.size === 0) continue;
      const entries = [...counter.values()];
      if (n <= 4) {
        let best = entries[0]!;
        for (const e of entries) if (e[0] > best[0]) best = e;
        common.push([`fraction_of_characters_in_most_common_${n}grams`, (best[0] * best[1]) / Math.max(chars, 1)]);
      } else {
        const total = entries.reduce((s, [c, l]) => s + c * l, 0);
        const dup = entries.filter(([c]) => c > 1).reduce((s, [c, l]) => s + c * l, 0);
        dups.push([`fraction_of_characters_in_duplicate_${n}grams`, dup / Math.max(total, 1)]);
      }
    }
    out.push(...common, ...dups);
    const lines = text.split('\n');
    const counts = new Map<string, number>();
    for (const l of lines) counts.set(l, (counts.get(l) ?? 0) + 1);
    scalars['fraction_of_lines_starting_with_bullet_point'] = lines.filter((l) => l.startsWith('*') || l.startsWith('-')).length / lines.length;
    scalars['fraction_of_lines_ending_with_ellipsis'] = lines.filter((l) => l.endsWith('\u2026')).length / lines.length;
    const dupLines = [...counts].filter(([, c]) => c > 1);
    scalars['fraction_of_duplicate_lines'] = dupLines.reduce((s, [, c]) => s + c, 0) / lines.length;
    scalars['fraction_of_characters_in_duplicate_lines'] = dupLines.reduce((s, [l, c]) => s + cpLength(l) * c, 0) / Math.max(chars, 1);
  }
  for (const n of names) out.push([n, scalars[n]!]);
  return out;
}

const tag = (text: string) => gopherSpans(text).map((s) => [s.type, s.score]);

describe('gopher_v1', () => {
  it('matches gopher.py exactly (unrounded) on random texts', () => {
    const next = rng(5);
    // Long words pass the short-length histogram of the median; \r, lone halves and pairs test code-point counts.
    const vocab = ['the', 'The', 'a', 'cat', '#tag', 'wait\u2026', '*', '-', 'x', 'é', '😀', 'and', 'to', '\ud800', '\udc00', 'with', 'have', 'that', 'Ωμέγα', '\u2026', 'a😀b', 'w'.repeat(300), '😀'.repeat(200), '\r', '\0the', 'th\0e', 'Have', 'wit'];
    const seps = [' ', ' ', ' ', '\n', '\n\n', '  ', '\t', '\u00a0', '\x1c', '', '\r\n', '\u3000', '\u2029'];
    for (let k = 0; k < 400; k++) {
      let text = '';
      for (let i = Math.floor(next() * 150); i > 0; i--) text += randomText(next, vocab, 1) + randomText(next, seps, 1);
      expect(tag(text), JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('scratch outgrown by a huge text and let go again gives the same spans', () => {
    const next = rng(9);
    const vocab = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'é', '😀'];
    const huge = Array.from({ length: 70_000 }, () => randomText(next, vocab, 1) + (next() < 0.1 ? '\n' : ' ')).join('');
    const small = 'the cat sat on the mat\nthe cat sat on the mat\n';
    expect(tag(small)).toEqual(reference(small));
    expect(tag(huge)).toEqual(reference(huge));
    expect(tag(small)).toEqual(reference(small));
  });

  it('ties in most_common go to the first n-gram seen', () => {
    // "bb cc" and "a a" both occur twice; "a a" comes first, so its 2 characters (x2) count.
    const spans = tag('a a x bb cc a a bb cc');
    expect(spans[0]).toEqual(['fraction_of_characters_in_most_common_2grams', (2 * 2) / 13]);
  });

  it('empty text: ten zero scalars and no n-gram spans', () => {
    expect(tag('')).toEqual(reference(''));
    expect(tag('')).toHaveLength(10);
  });

  it('whitespace-only text does not divide by zero', () => {
    const spans = tag(' \n\t\n ');
    expect(spans).toEqual(reference(' \n\t\n '));
    expect(spans.every(([, v]) => Number.isFinite(v))).toBe(true);
  });

  it('lone surrogates count as one character each', () => {
    const text = 'ab \ud800 \udc00x \ud83d\ude00';
    expect(tag(text)).toEqual(reference(text));
    expect(tag(text).find(([t]) => t === 'character_count')?.[1]).toBe(9);
  });
});

// gopherSpans above runs on the C addon where it is built (native/gopher.c); here its counts meet the JavaScript's.
describe.runIf(nativeAddon() !== null)('gopher_v1 in C', () => {
  it('counts what the JavaScript counts, distinct words included, letters decided by the regex', () => {
    const next = rng(11);
    // BMP letters without an ASCII one (東京, Ωμέγα), astral letters (𝐀𝐁, 𠀀), astral non-letters (😀), symbols only.
    const vocab = ['the', 'a', '#tag', '\u2026', '東京', 'Ωμέγα', '𝐀𝐁', '𠀀x', '😀', '€€', '¿?', '\ud800', 'and', 'w'.repeat(300), '*', '-'];
    const seps = [' ', '\n', '\n\n', '\t', '\u00a0', '\x1c', '\u3000', '\r\n'];
    for (let k = 0; k < 300; k++) {
      let text = '';
      for (let i = Math.floor(next() * 120); i > 0; i--) text += randomText(next, vocab, 1) + randomText(next, seps, 1);
      const c = gopherCounts(text);
      const cWords = distinctWords(text);
      const cFirst = cWords === null ? null : [...cWords.starts.subarray(0, cWords.count)].map((s, i) => text.slice(s, cWords.ends[i]));
      const js = gopherCountsJs(text);
      const jsWords = distinctWords(text);
      expect(c, JSON.stringify(text)).toEqual(js);
      expect(cFirst).toEqual([...jsWords!.starts.subarray(0, jsWords!.count)].map((s, i) => text.slice(s, jsWords!.ends[i])));
    }
  });

  it('refuses arguments that are not what it reads, naming them', () => {
    const addon = nativeAddon()!;
    const b = new Int32Array(8);
    expect(() => addon.gopherStats(42 as unknown as string, new Float64Array(48), b, b, b, b)).toThrow(/text/);
    expect(() => addon.gopherStats('a b', new Float64Array(10), b, b, b, b)).toThrow(/out/);
    expect(() => addon.gopherStats('a b c d e f g h i j', new Float64Array(48), new Int32Array(2), new Int32Array(2), b, b)).toThrow(/too small/);
    expect(addon.gopherStats('a b a', new Float64Array(48), b, b, b, b)).toEqual([2, 2, 0]);
  });
});
