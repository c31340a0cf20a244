// find_duplicates over ranges of a text: the addon's one call against the JavaScript's RangeSet and the plain definition.
import { describe, expect, it } from 'vitest';
import { addonStatus } from '../native-addon.js';
import { rng } from '../testing.js';
import { duplicatesInJs, duplicatesOf, findDuplicates, RangeList } from './duplicates.js';

const addon = addonStatus().addon;

/** Lines of random texts over a small alphabet (repeats are common): surrogate pairs, lone halves, empty lines. */
function randomTexts(count: number, seed: number): string[] {
  const rand = rng(seed);
  const units = ['a', 'b', ' ', '😀', '\ud800', '\udc00', 'é', '\n', '\n', '\n'];
  return Array.from({ length: count }, () => Array.from({ length: Math.floor(rand() * 120) }, () => units[Math.floor(rand() * units.length)]).join(''));
}

function linesOf(text: string): RangeList {
  const list = new RangeList();
  for (let a = 0; ; ) {
    const nl = text.indexOf('\n', a);
    const b = nl === -1 ? text.length : nl;
    list.push(a, b);
    if (nl === -1) return list;
    a = nl + 1;
  }
}

describe('duplicatesOf', () => {
  it('matches find_duplicates over the pieces as strings (JavaScript path)', () => {
    for (const text of randomTexts(300, 7)) expect(duplicatesInJs(text, linesOf(text))).toEqual(findDuplicates(text.split('\n')));
  });

  it.runIf(addon !== null)('gives the addon the JavaScript\'s answer, surrogates and empty ranges included', () => {
    for (const text of randomTexts(2000, 11)) {
      const list = linesOf(text);
      expect(duplicatesOf(text, list)).toEqual(duplicatesInJs(text, list));
    }
    // More ranges than a first table holds, and the buffer grown past its first size.
    const big = Array.from({ length: 5000 }, (_, i) => `line ${i % 700}`).join('\n');
    expect(duplicatesOf(big, linesOf(big))).toEqual({ elements: 4300, chars: findDuplicates(big.split('\n')).chars });
  });

  it.runIf(addon !== null)('refuses ranges outside the text or a count past the ranges', () => {
    const out = new Float64Array(2);
    expect(() => addon!.rangeDuplicates('abc', Int32Array.of(0, 4), 1, out)).toThrow(/outside the text/);
    expect(() => addon!.rangeDuplicates('abc', Int32Array.of(2, 1), 1, out)).toThrow(/outside the text/);
    expect(() => addon!.rangeDuplicates('abc', Int32Array.of(0, 1), 2, out)).toThrow(/count/);
    addon!.rangeDuplicates('abab', Int32Array.of(0, 2, 2, 4, 1, 1, 3, 3), 4, out);
    expect([...out]).toEqual([2, 2]);
  });
});
