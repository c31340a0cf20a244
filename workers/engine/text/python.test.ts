import { describe, expect, it } from 'vitest';
import { cpLength, pyFloatRepr, pyRound, pySplit, pySplitlines, pyStrip } from './python.js';

describe('Python string semantics', () => {
  it('round() is exact round-half-even', () => {
    expect(pyRound(0.1875, 3)).toBe(0.188);
    expect(pyRound(2.5)).toBe(2);
    expect(pyRound(3.5)).toBe(4);
    expect(pyRound(0.5)).toBe(0);
    expect(pyRound(1.5, 0)).toBe(2);
    expect(pyRound(2.675, 2)).toBe(2.67); // 2.675 is 2.67499999… in binary
    expect(pyRound(0.123456789, 5)).toBe(0.12346);
    expect(pyRound(-2.5)).toBe(-2);
    expect(pyRound(1234.5, -1)).toBe(1230);
    expect(pyRound(15, 5)).toBe(15);
  });
  it('repr(float)', () => {
    expect(pyFloatRepr(4)).toBe('4.0');
    expect(pyFloatRepr(0.00001)).toBe('1e-05');
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(0.188)).toBe('0.188');
    expect(pyFloatRepr(0)).toBe('0.0');
  });
  it('split, strip, splitlines, len', () => {
    expect(pySplit('  a \u00a0b\x1cc  ')).toEqual(['a', 'b', 'c']);
    expect(pyStrip('\ufeff x \x1f')).toBe('\ufeff x');
    expect(pySplitlines('x\n')).toEqual(['x']);
    expect(pySplitlines('\n')).toEqual(['']);
    expect(pySplitlines('')).toEqual([]);
    expect(pySplitlines('a\r\nb\rc\u2028d')).toEqual(['a', 'b', 'c', 'd']);
    expect(cpLength('a😊b')).toBe(3);
    expect(cpLength('\ud800x')).toBe(2);
  });

  it('len() counts what iterating the string yields: pairs once, lone surrogates once each', () => {
    const pieces = ['a', 'é', '😊', '\ud800', '\udbff', '\udc00', '\udfff', '\ud7ff', '\ue000', '中', '\n'];
    let s = 7;
    const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
    for (let t = 0; t < 2000; t++) {
      let text = next() < 0.2 ? 'x'.repeat(Math.floor(next() * 300)) : '';
      const n = Math.floor(next() * 12);
      for (let k = 0; k < n; k++) text += pieces[Math.floor(next() * pieces.length)];
      expect(cpLength(text), JSON.stringify(text)).toBe([...text].length);
    }
  });
});
