// AhoCorasick.test against a plain substring search, on its table path (ASCII words) and its map path.
import { describe, expect, it } from 'vitest';
import { AhoCorasick } from './aho-corasick.js';

let seed = 11;
const rnd = (n: number): number => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % n);
const ALPHABET = ['a', 'b', 'c', 'ab', 'x', '1', 'é', '\u{1f600}'];
const word = (max: number): string => Array.from({ length: rnd(max) }, () => ALPHABET[rnd(ALPHABET.length)]).join('');

describe('AhoCorasick', () => {
  it('finds a word in a text exactly when some word is a substring of it (empty words never match)', () => {
    for (let k = 0; k < 300; k++) {
      const words = Array.from({ length: 1 + rnd(6) }, () => word(5));
      const ascii = words.map((w) => w.replace(/[^\0-\x7f]/gu, ''));
      for (const list of [words, ascii]) {
        const ac = new AhoCorasick(list);
        for (let t = 0; t < 10; t++) {
          const text = word(14);
          expect(ac.test(text), JSON.stringify([list, text])).toBe(list.some((w) => w !== '' && text.includes(w)));
        }
      }
    }
  });

  it('gives the same answers past the table size, where it searches with maps', () => {
    const many = Array.from({ length: 2_000 }, (_, i) => `w${i.toString(36)}long${i}`);
    const ac = new AhoCorasick(many);
    for (const text of ['xxw1long1', 'w1long', 'zzzw1lo', `..${many[1999]}..`, 'nothing here']) expect(ac.test(text)).toBe(many.some((w) => text.includes(w)));
  });
});
