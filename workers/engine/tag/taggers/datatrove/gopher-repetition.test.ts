// gopher_repetition's line and paragraph duplicates, read in place, against the split-and-Set definition.
import { describe, expect, it } from 'vitest';
import { findDuplicates } from '../../../text/duplicates.js';
import { cpLength, pySplitlines, pyStrip } from '../../../text/python.js';
import { nativeAddon } from '../../../native-addon.js';
import { gopherRepetitionOptions, gopherRepetitionRules, pieceDuplicates } from './gopher-repetition.js';

const PIECES = ['\n', '\n', '\n\n', '\n\n\n', 'a', 'ab', 'b a', ' ', '\t', '\r\n', '\r', '😀', '\ud800', '\udc00', '\u2028', 'é', 'x'.repeat(30)];

function randomText(seed: number): string {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  let t = '';
  const n = Math.floor(next() * 30);
  for (let k = 0; k < n; k++) t += PIECES[Math.floor(next() * PIECES.length)];
  return t;
}

describe('gopher_repetition lines and paragraphs', () => {
  for (const profile of ['head', 'fineweb-2024'] as const) {
    it(`equal find_duplicates over split pieces (${profile})`, () => {
      const o = gopherRepetitionOptions.parse({ profile });
      for (let seed = 0; seed < 1500; seed++) {
        const text = randomText(seed);
        const len = cpLength(text);
        const paragraphs = pyStrip(text).split(/\n{2,}/);
        const lines = profile === 'head' ? text.split(/\n+/) : pySplitlines(text);
        const para = findDuplicates(paragraphs);
        const line = findDuplicates(lines);
        const want: Record<string, number | undefined> = {
          dup_para_frac: para.elements / paragraphs.length,
          dup_para_char_frac: len ? para.chars / len : undefined,
          dup_line_frac: lines.length ? line.elements / lines.length : undefined,
          dup_line_char_frac: len ? line.chars / len : undefined,
        };
        const got = Object.fromEntries(gopherRepetitionRules(text, o).filter((r) => r.rule in want).map((r) => [r.rule, r.value]));
        expect(got, JSON.stringify(text)).toEqual(want);
      }
    });
  }
});

describe('gopher_repetition lines and paragraphs in C (native/ranges.c)', () => {
  const addon = nativeAddon();

  it.skipIf(addon === null)('give the JavaScript counts on 3,000 random texts, both profiles', () => {
    for (const profile of ['head', 'fineweb-2024'] as const) {
      const o = gopherRepetitionOptions.parse({ profile });
      for (let seed = 0; seed < 1500; seed++) {
        const text = randomText(seed + 7000) + (seed % 3 === 0 ? '\n\n' + randomText(seed) : '');
        expect(pieceDuplicates(text, o), JSON.stringify(text)).toEqual(pieceDuplicates(text, o, true));
      }
    }
  });

  it.skipIf(addon === null)('refuses a range or lines outside the text', () => {
    const out = new Float64Array(6);
    expect(() => addon!.repetitionDuplicates('abc', 2, 1, null, out)).toThrow(/range/);
    expect(() => addon!.repetitionDuplicates('abc', 0, 4, null, out)).toThrow(/range/);
    expect(() => addon!.repetitionDuplicates('abc', 0, 3, Int32Array.of(0, 5, 5), out)).toThrow(/line offsets/);
    addon!.repetitionDuplicates('a\n\na\nb\nb', 0, 8, null, out);
    expect(Array.from(out)).toEqual([2, 0, 0, 4, 2, 2]);
  });
});
