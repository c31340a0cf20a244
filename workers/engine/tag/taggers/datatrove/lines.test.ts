// The index-based strip helpers against Python's strip() as the regex port has it, on every whitespace character.
import { describe, expect, it } from 'vitest';
import { pyStrip } from '../../../text/python.js';
import { isBlankText, stripText } from './lines.js';

const WS = ['\t', '\n', '\x0b', '\x0c', '\r', '\x1c', '\x1f', ' ', '\x85', '\xa0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000'];
const NOT_WS = ['a', '\u200b', '\ufeff', '\x1b', '😀', '.'];

describe('stripText / isBlankText', () => {
  it('equal str.strip() and str.strip() == "" on random mixes', () => {
    let s = 9;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let t = 0; t < 500; t++) {
      let text = '';
      const n = Math.floor(next() * 12);
      for (let k = 0; k < n; k++) text += next() < 0.7 ? WS[Math.floor(next() * WS.length)] : NOT_WS[Math.floor(next() * NOT_WS.length)];
      expect(stripText(text)).toBe(pyStrip(text));
      expect(isBlankText(text)).toBe(pyStrip(text) === '');
    }
  });
});
