// The unit-level word tests of gopher_quality against their string definitions, on adversarial characters.
import { describe, expect, it } from 'vitest';
import { PUNCTUATION_SET } from '../../../text/charsets.js';
import { isAlpha } from '../../../text/python.js';
import { hasAlpha, isSymbolWord } from './word-classes.js';

// Punctuation (BMP, fullwidth, astral terminal marks), letters (ASCII, Latin-1, CJK, astral), digits, marks, lone
// surrogates, controls that are punctuation upstream, and the ASCII edges around the letters.
const PIECES = ['.', '!', '"', '…', '．', '！', '\u{11047}', '\u{1da88}', 'a', 'Z', 'é', 'ß', '中', '\u{1d400}', '\u{10400}', '1', '٣', '\u0301', '\ud800', '\udc00', '\x01', '\x85', '@', '[', '`', '{', '😀', '-', '#', ' '];

const toUnits = (s: string) => Uint16Array.from({ length: s.length }, (_, i) => s.charCodeAt(i));

describe('gopher_quality word classes', () => {
  it('isSymbolWord and hasAlpha equal their string definitions', () => {
    let s = 5;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let t = 0; t < 3000; t++) {
      let w = '';
      const n = Math.floor(next() * 5);
      for (let k = 0; k < n; k++) w += PIECES[Math.floor(next() * PIECES.length)];
      // Also inside a longer buffer, so the range bounds matter (a pair cut by the bound is two lone surrogates).
      const buf = toUnits(`\ud83d${w}\ude00`);
      expect(isSymbolWord(buf, 1, 1 + w.length), JSON.stringify(w)).toBe([...w].every((c) => PUNCTUATION_SET.has(c)));
      expect(hasAlpha(buf, 1, 1 + w.length), JSON.stringify(w)).toBe([...w].some((c) => isAlpha(c)));
    }
  });
});
