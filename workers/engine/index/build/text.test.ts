// The index's text measures agree with the mixer's own functions (rustTrim, utf8Length, code points).
import { describe, expect, it } from 'vitest';
import { rustTrim, utf8Length } from '../../mix/json.js';
import { codePointLength } from '../../mix/spans.js';
import { rng } from '../../testing.js';
import { estimateTokens, measureText } from './text.js';

const ALPHABET = ['a', 'é', '😀', ' ', '\t', '\n', '\u000b', '\u000c', '\r', '\u0085', '\u00a0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', '\u180e', '\u200b', 'x'];

describe('measureText', () => {
  it('matches rustTrim + utf8Length and code points on random texts made of every whitespace kind', () => {
    const r = rng(5);
    for (let i = 0; i < 5000; i++) {
      const len = Math.floor(r() * 12);
      let s = '';
      for (let k = 0; k < len; k++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
      const m = measureText(s);
      expect(m.trimmed, JSON.stringify(s)).toBe(utf8Length(rustTrim(s)));
      expect(m.bytes).toBe(utf8Length(s));
      expect(m.chars).toBe(codePointLength(s));
      expect(m.tokens).toBe(estimateTokens(m.bytes));
    }
  });

  it('is linear on long inner whitespace runs', () => {
    const s = `a${' '.repeat(2_000_000)}b`;
    const t = performance.now();
    expect(measureText(s).trimmed).toBe(2_000_002);
    expect(performance.now() - t).toBeLessThan(2000);
  });
});
