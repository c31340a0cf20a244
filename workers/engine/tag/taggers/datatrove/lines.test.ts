// The index-based line and strip helpers against Python's splitlines() and strip() as the regex ports have them, and
// splitlineOffsets against splitlines() restated plainly, with \n alone (its indexOf path) and with the other breaks.
import { describe, expect, it } from 'vitest';
import { pySplitlines, pyStrip } from '../../../text/python.js';
import { documentLines, forEachLine, isBlankText, splitlineOffsets, stripText, wordStats } from './lines.js';

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

/** Python's `str.splitlines()` terminators, one UTF-16 unit each (\r\n is one terminator of two). */
const BREAKS = new Set(['\n', '\r', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029']);

/** [start, end, next] per line, as `str.splitlines(keepends=True)` cuts `text`. */
function reference(text: string): number[] {
  const out: number[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (!BREAKS.has(text[i] as string)) continue;
    const next = text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
    out.push(start, i, next);
    start = next;
    i = next - 1;
  }
  if (start < text.length) out.push(start, text.length, text.length);
  return out;
}

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const PLAIN = ['word', ' ', '\n', '\n\n', '\t', 'é', '😀', '\u00a0', '.'];
const RARE = ['\r\n', '\r', '\x0b', '\x0c', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029', '\r\r\n'];

describe('splitlineOffsets', () => {
  it('cuts the edge cases as str.splitlines() does', () => {
    for (const text of ['', '\n', 'a', 'a\n', '\n\n', 'a\nb', 'a\n\nb\n', '\r\n', 'a\r\nb', 'a\rb\n', 'a\n\r', '\r\n\n', 'x\u2029']) {
      expect([...splitlineOffsets(text)], JSON.stringify(text)).toEqual(reference(text));
    }
  });

  it('agrees with the reference on 3,000 random texts, with \\n alone and with the other breaks', () => {
    for (let seed = 0; seed < 3000; seed++) {
      const next = random(seed);
      const pieces = seed % 2 === 0 ? PLAIN : [...PLAIN, ...RARE];
      let text = '';
      for (let k = Math.floor(next() * 80); k > 0; k--) text += pieces[Math.floor(next() * pieces.length)];
      expect([...splitlineOffsets(text)], `seed ${seed}: ${JSON.stringify(text)}`).toEqual(reference(text));
    }
  });

  it('past its first scratch buffer, both ways', () => {
    for (const text of ['ab\n'.repeat(5000) + 'z', 'ab\r\n'.repeat(5000)]) expect([...splitlineOffsets(text)]).toEqual(reference(text));
  });

  it('documentLines and forEachLine give the same lines (the pass shares them through the document view)', () => {
    const text = 'one\ntwo\r\nthree\u2028four';
    expect([...documentLines(text)]).toEqual(reference(text));
    const seen: number[] = [];
    forEachLine(text, (a, b, c) => seen.push(a, b, c));
    expect(seen).toEqual(reference(text));
  });
});
