// The one-pass HEAD word writer against the general path, splitIntoWords(simplifyText(text)), word for word and byte for byte.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rng } from '../testing.js';
import { HeadWordsWriter } from './head-words.js';
import { simplifyText } from './simplify.js';
import { splitIntoWords } from './words.js';

const writer = new HeadWordsWriter();
const decoder = new TextDecoder();

/** The writer's words decoded back from its UTF-8 output, or null when it declined the text. */
function fast(text: string, capacity = 2 * text.length + 16): string[] | null {
  const out = new Uint8Array(capacity);
  const starts = new Int32Array(text.length + 2);
  const n = writer.write(text, out, starts);
  if (n < 0) return null;
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(decoder.decode(out.subarray(starts[i], (starts[i + 1] as number) - 1)));
  // Words are joined by exactly one space and end where starts[n] - 1 says.
  expect(decoder.decode(out.subarray(0, (starts[n] as number) - 1))).toBe(words.join(' '));
  return words;
}

/** The general path, with lone surrogates replaced as UTF-8 encoding replaces them. */
const general = (text: string): string[] => splitIntoWords(simplifyText(text, {}, 'head')).map((w) => Buffer.from(w, 'utf8').toString('utf8'));

const PIECES = [
  'a', 'Z', 'x', 'dont', 'Im', 'gonna', 'cannot', 'its', 'km', 'pm', '3', '12', '.', ',', ' ', '  ', '\n', '\t', '\u00a0', '\u2000',
  '\u3000', '\x1c', '\x0b', '\x00', '\x7f', '\x85', "'", '’', '“', '—', '…', '-', '/', ':', '@', '$', '%', '&', '+', '#', 'é', 'É', 'ß',
  'İ', 'σ', 'ς', '\u0301', '\u0308', '가', '각', '\u037e', '،', '٫', '⎖', '😀', '\ud800', '\udc00', 'e.g.', 'U.S.', 'example.com',
  'http://x.org/a', 'C++', ':)', '<3', '™', '°C', '£', '€', '•', '\u200b', 'ǅ', 'ﬁ', 'Å', '\u212a', '½', '²', 'ΐ', 'ᾂ', '＃', 'ｆ',
];

describe('HeadWordsWriter', () => {
  it('equals the general path on edge cases', () => {
    for (const text of [
      '', '   ', '0', 'plain ascii words', "Don't stop: it's 3.14, 1,000,000 and 1.2.3 — isn't it?", 'dont gonna IM cannot its',
      '5km 3pm 10.5% $5.00 abc123def a1.2b', '“quoted” x\u00a0y\u2003z', 'café naïve Ångström', 'é1.5 é.5 1،5', 'a’\u0301b',
      '\u0301 \u0308x', 'a\u037eb', 'user1234@example.com http://example.com/path', 'ＡＢＣ ｆ', '가각 😀 \ud800x',
    ]) {
      expect(fast(text), JSON.stringify(text)).toEqual(general(text));
    }
  });

  it('equals the general path on random text drawn from awkward pieces', () => {
    const r = rng(4);
    for (let it = 0; it < 3000; it++) {
      let text = '';
      for (let j = 1 + Math.floor(r() * 25); j > 0; j--) text += PIECES[Math.floor(r() * PIECES.length)];
      // Room for any decomposition, so the writer never declines for space here.
      expect(fast(text, 10 * text.length + 16), JSON.stringify(text)).toEqual(general(text));
    }
  });

  it('equals the general path on English prose (nlp-corpus)', () => {
    const dir = join(dirname(createRequire(import.meta.url).resolve('nlp-corpus')), '../../builds');
    const sentences = JSON.parse(readFileSync(join(dir, 'doc-7.json'), 'utf8')) as string[];
    let handled = 0;
    for (let i = 0; i < sentences.length; i += 10) {
      const text = sentences.slice(i, i + 10).join(i % 20 ? ' ' : '\n');
      const words = fast(text);
      if (words !== null) handled++;
      expect(words ?? general(text)).toEqual(general(text));
    }
    expect(handled).toBeGreaterThan(sentences.length / 20);
  });

  it('declines what is not chunk-local: non-ASCII digits and capital sigma; and output that does not fit', () => {
    for (const text of ['x ١.٢', 'ΟΔΟΣ', 'a 𝟏.𝟐', 'fullwidth １']) expect(fast(text), text).toBeNull();
    expect(fast('각각각각각각', 8)).toBeNull();
    expect(fast('각 a b c d e f g h i j', 30)).toBeNull(); // the jamo fit, the ASCII after them might not
    expect(fast('각 a b c d e f g h i j', 60)).toEqual(general('각 a b c d e f g h i j'));
  });
});
