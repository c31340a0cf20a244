// gopher_quality's line and word counts against DataTrove's expressions written out with Python's strip semantics.
import { describe, expect, it } from 'vitest';
import { cpLength, isAlpha, pyLstrip, pyRstrip, pySplitlines } from '../../../text/python.js';
import { PUNCTUATION_SET } from '../../../text/charsets.js';
import { splitIntoWords } from '../../../text/words.js';
import { nativeAddon } from '../../../native-addon.js';
import { gopherQualityCounts, gopherQualityOptions, gopherQualityRules } from './gopher-quality.js';
import { ALPHA_BMP_RANGES } from '../../../text/bmp-ranges.js';
import { PUNCT_BMP } from './word-classes.js';

const PIECES = ['•', '-', '...', '…', '..', ' ', '\u00a0', '\t', '\u3000', 'word', 'Über', '😀', '#', '!!', '—', '\n', '\r\n', '\u2028', '.'];

function randomText(seed: number, parts: number): string {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let t = '';
  for (let k = 0; k < parts; k++) t += PIECES[Math.floor(next() * PIECES.length)];
  return t;
}

describe('gopher_quality', () => {
  const o = gopherQualityOptions.parse({});
  const value = (text: string, rule: string) => gopherQualityRules(text, o).find((r) => r.rule === rule)?.value;

  it('bullet and end-ellipsis lines: l.lstrip().startswith(("•", "-")), l.rstrip().endswith(("...", "…"))', () => {
    for (let seed = 0; seed < 300; seed++) {
      const text = randomText(seed, 1 + (seed % 40));
      const lines = pySplitlines(text);
      const bullets = lines.filter((l) => /^[•-]/.test(pyLstrip(l))).length;
      const ellipsis = lines.filter((l) => pyRstrip(l).endsWith('...') || pyRstrip(l).endsWith('…')).length;
      expect(value(text, 'gopher_too_many_bullets')).toBe(lines.length ? bullets / lines.length : undefined);
      expect(value(text, 'gopher_too_many_end_ellipsis')).toBe(lines.length ? ellipsis / lines.length : undefined);
    }
  });

  it('non-symbol words, their mean length and alphabetic words', () => {
    for (let seed = 0; seed < 100; seed++) {
      const text = randomText(seed + 1000, 60).replace(/\n/g, ' ');
      const words = splitIntoWords(text);
      const kept = words.filter((w) => ![...w].every((c) => PUNCTUATION_SET.has(c)));
      const alpha = words.filter((w) => [...w].some((c) => isAlpha(c))).length;
      expect(value(text, 'gopher_short_doc')).toBe(kept.length);
      const chars = kept.reduce((a, w) => a + cpLength(w), 0);
      expect(value(text, 'gopher_below_avg_threshold')).toBe(kept.length ? chars / kept.length : undefined);
      expect(value(text, 'gopher_below_alpha_threshold')).toBe(words.length ? alpha / words.length : undefined);
    }
  });
});

describe('gopher_quality in C (native/gopher-quality.c)', () => {
  const addon = nativeAddon();
  // Words of every class: ASCII, BMP letters and punctuation, astral letters (𝐀) and punctuation (U+10A56), emoji,
  // lone surrogate halves, stop words, and every line break and space the line rules strip.
  const WORDS = ['the', 'The', 'be', 'to', 'of', 'and', 'that', 'have', 'with', 'word', 'Über', 'σοφία', '中文', '¿', '—', '...', '…', '#', '#tag',
    '\u{1d400}x', '\u{10a56}', '\u{10a56}\u{10a57}', '😀', 'a😀', '\ud800', 'x\udc00', '-', '•', '!!', '12', '١٢', 'a.b', '«»',
    '..', '....', '.....', '…...', '#...#'];
  const GAPS = [' ', '  ', '\n', '\r\n', '\r', '\u2028', '\u0085', '\x0b', '\x1c', '\t', '\u00a0', '\u3000', ' \n ', ''];

  function text(seed: number): string {
    let s = seed >>> 0;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    let t = next() < 0.3 ? GAPS[Math.floor(next() * GAPS.length)]! : '';
    for (let k = Math.floor(next() * 80); k > 0; k--) t += WORDS[Math.floor(next() * WORDS.length)]! + GAPS[Math.floor(next() * GAPS.length)]!;
    return t;
  }

  it('the letter ranges are str.isalpha() (this Node\'s \\p{L}) for every BMP unit', () => {
    const marked = new Uint8Array(0x10000);
    for (let k = 0; k < ALPHA_BMP_RANGES.length; k += 2) marked.fill(1, ALPHA_BMP_RANGES[k]!, ALPHA_BMP_RANGES[k + 1]! + 1);
    const wrong: string[] = [];
    for (let u = 0; u < 0x10000; u++) if ((marked[u] === 1) !== isAlpha(String.fromCharCode(u))) wrong.push(`U+${u.toString(16)}`);
    expect(wrong).toEqual([]);
  });

  it.skipIf(addon === null)('gives the JavaScript counts on 3,000 random texts, for both profiles and a stop list of its own', () => {
    const options = [
      gopherQualityOptions.parse({}),
      gopherQualityOptions.parse({ profile: 'fineweb-2024' }),
      gopherQualityOptions.parse({ stop_words: ['word', 'the', 'word', '😀', '—', 'σοφία', ''] }),
    ];
    for (let seed = 0; seed < 3000; seed++) {
      const t = text(seed);
      const o = options[seed % options.length]!;
      expect(Array.from(gopherQualityCounts(t, o, false)), `seed ${seed}: ${JSON.stringify(t)}`).toEqual(Array.from(gopherQualityCounts(t, o, true)));
    }
  });

  it.skipIf(addon === null)('refuses arrays that do not fit together', () => {
    const a = addon!;
    const tables = a.gopherQualityTables(PUNCT_BMP, ALPHA_BMP_RANGES, Uint16Array.of(0x61), Int32Array.of(0, 1));
    const call = (starts: number[], ids: number[], first: number[], lines: number[], vocab = 1) =>
      a.gopherQuality(tables, 'ab', Int32Array.from(lines), Uint16Array.of(0x61, 0x62), Int32Array.from(starts), Int32Array.from(ids), Int32Array.from(first),
        Int32Array.of(1, 1), ids.length, vocab, new Float64Array(9), new Int32Array(8));
    expect(call([0, 1, 2], [0, 0], [0], [0, 2, 2])).toBe(0);
    expect(() => call([0, 1, 3], [0, 0], [0], [0, 2, 2])).toThrow(/word starts/);
    expect(() => call([0, 1, 2], [0, 1], [0], [0, 2, 2])).toThrow(/word ids/);
    expect(() => call([0, 1, 2], [0, 0], [2], [0, 2, 2])).toThrow(/first occurrences/);
    expect(() => call([0, 1, 2], [0, 0], [0], [0, 3, 3])).toThrow(/line offsets/);
    expect(() => a.gopherQualityTables(new Uint8Array(10), ALPHA_BMP_RANGES, Uint16Array.of(), Int32Array.of(0))).toThrow(/punctuation/);
    expect(() => a.gopherQualityTables(PUNCT_BMP, Uint16Array.of(5, 3), Uint16Array.of(), Int32Array.of(0))).toThrow(/letters/);
    expect(() => a.gopherQualityTables(PUNCT_BMP, ALPHA_BMP_RANGES, Uint16Array.of(0x61), Int32Array.of(0, 2))).toThrow(/offsets/);
  });
});
