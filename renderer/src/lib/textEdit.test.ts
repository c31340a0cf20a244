import { describe, expect, it } from 'vitest';
import { rng } from '../testing/rng.js';
import { minimalEdit } from './textEdit.js';

const apply = (s: string, e: { start: number; end: number; text: string } | null) => (e ? s.slice(0, e.start) + e.text + s.slice(e.end) : s);

describe('minimalEdit', () => {
  it('replaces only the changed middle', () => {
    expect(minimalEdit('x < 50)', 'x < 62.5)')).toEqual({ start: 4, end: 6, text: '62.5' });
    expect(minimalEdit('same', 'same')).toBeNull();
    expect(minimalEdit('aaa', 'aaaa')).toEqual({ start: 3, end: 3, text: 'a' });
  });

  it('never splits a surrogate pair', () => {
    const e = minimalEdit('a😀b', 'a😃b');
    expect(e).toEqual({ start: 1, end: 3, text: '😃' });
  });

  it('always turns the old text into the new one', () => {
    const r = rng(3);
    const alphabet = ['a', 'b', '\n', '😀', ' '];
    const word = () => Array.from({ length: Math.floor(r() * 12) }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');
    for (let i = 0; i < 500; i++) {
      const a = word();
      const b = word();
      expect(apply(a, minimalEdit(a, b))).toBe(b);
    }
  });
});
