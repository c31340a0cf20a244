// The index-based line and strip helpers against Python's splitlines() and strip() as the regex ports have them.
import { describe, expect, it } from 'vitest';
import { pySplitlines, pyStrip } from '../../../text/python.js';
import { forEachLine, isBlankText, stripText, wordStats } from './lines.js';

const WS = ['\t', '\n', '\x0b', '\x0c', '\r', '\x1c', '\x1f', ' ', '\x85', '\xa0', '\u1680', '\u2000', '\u200a', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000'];
const NOT_WS = ['a', '\u200b', '\ufeff', '\x1b', '😀', '.', '\r\n', '\x1d', '\x1e', '\x84', '\x86', '\u2027', '\u202a', '\ud800', 'é'];

function randomTexts(seed: number, count: number): string[] {
  let s = seed;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () => {
    let text = '';
    const n = Math.floor(next() * 12);
    for (let k = 0; k < n; k++) text += next() < 0.7 ? WS[Math.floor(next() * WS.length)] : NOT_WS[Math.floor(next() * NOT_WS.length)];
    return text;
  });
}

describe('stripText / isBlankText', () => {
  it('equal str.strip() and str.strip() == "" on random mixes', () => {
    for (const text of randomTexts(9, 500)) {
      expect(stripText(text)).toBe(pyStrip(text));
      expect(isBlankText(text)).toBe(pyStrip(text) === '');
    }
  });
});

describe('wordStats', () => {
  // Python's whitespace (str.isspace()): the control characters \x1c–\x1f are part of it.
  // eslint-disable-next-line no-control-regex
  const PY_WS = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
  it('counts str.split() words of a range and finds a word longer than maxLen code points', () => {
    // Long words too: runs of non-whitespace with pairs and lone surrogates, around the limits tried.
    const texts = [...randomTexts(4, 400), ...randomTexts(6, 300).map((t) => t.replace(/[^\s]/g, (c) => c.repeat(3)))];
    for (const text of texts) {
      for (const [a, b] of [[0, text.length], [1, text.length], [0, Math.max(0, text.length - 2)]] as const) {
        if (a > b) continue;
        const words = text.slice(a, b).split(PY_WS).filter((w) => w !== '');
        const longest = Math.max(0, ...words.map((w) => [...w].length));
        for (const maxLen of [-1, 0, 1, 2, 3, 5, 8]) {
          expect(wordStats(text, a, b, maxLen), JSON.stringify([text, a, b, maxLen])).toEqual({ count: words.length, tooLong: maxLen >= 0 && longest > maxLen });
        }
      }
    }
  });
});

describe('forEachLine', () => {
  it('cuts the lines of str.splitlines(), each terminator up to the next line', () => {
    for (const text of [...randomTexts(11, 800), '', 'a', '\r\n', 'a\r\r\nb\n', 'x'.repeat(100) + '\u2029']) {
      const lines: string[] = [];
      let at = 0;
      forEachLine(text, (start, end, next) => {
        expect(start).toBe(at);
        lines.push(text.slice(start, end));
        at = next;
      });
      expect(at).toBe(text.length);
      expect(lines).toEqual(pySplitlines(text));
    }
  });
});
