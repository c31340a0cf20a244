// rustTrim is Rust's `str::trim` (Unicode White_Space, not JS's set) and stays linear on long inner whitespace.
import { describe, expect, it } from 'vitest';
import { rng } from '../testing.js';
import { rustTrim } from './json.js';

const RUST_WS = '\t\n\v\f\r \u0085\u00A0\u1680\u2000\u2001\u2005\u200A\u2028\u2029\u202F\u205F\u3000';
const REFERENCE = new RegExp(`^[${RUST_WS}\u2000-\u200A]+|[${RUST_WS}\u2000-\u200A]+$`, 'g');

describe('rustTrim', () => {
  it('equals the regex definition on random strings of whitespace and non-whitespace', () => {
    const rand = rng(11);
    const alphabet = [...RUST_WS, 'a', 'é', '\uFEFF', '\u200B', '😀', 'x y'];
    for (let n = 0; n < 3000; n++) {
      let s = '';
      const len = Math.floor(rand() * 12);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
      expect(rustTrim(s)).toBe(s.replace(REFERENCE, ''));
    }
  });

  it('keeps U+FEFF and removes U+0085, unlike String.prototype.trim', () => {
    expect(rustTrim('\uFEFFa\u0085')).toBe('\uFEFFa');
  });

  it('trims a text with a 200,000-space inner run quickly', () => {
    const s = ` a${' '.repeat(200_000)}b `;
    const t = performance.now();
    expect(rustTrim(s)).toBe(s.slice(1, -1));
    expect(performance.now() - t).toBeLessThan(50);
  });
});
