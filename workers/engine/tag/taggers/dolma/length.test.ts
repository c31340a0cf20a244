// Length taggers and split_paragraphs: Dolma's regexes as references, the tokens+1 quirk, code points.
import { describe, expect, it } from 'vitest';
import { charLengthWithParagraphsV1, whitespaceTokenizerV1, whitespaceTokenizerWithParagraphsV1, whitespaceTokenPieces } from './length.js';
import { PY_WS_CLASS, randomText, rng, tagText } from './test-helpers.js';
import { splitParagraphs } from './text.js';

const WORD = '\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}\\p{Join_Control}';
const UNI_WS = '\\t\\n\\x0b\\x0c\\r\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
/** `len(regex.split(r"\w+|[^\w\s]+", text))` with the `regex` package's classes. */
const referencePieces = (text: string) => text.split(new RegExp(`[${WORD}]+|[^${WORD}${UNI_WS}]+`, 'u')).length;

describe('split_paragraphs', () => {
  it('matches ([^\\n]*\\n|[^\\n]+$) and drops blank paragraphs', () => {
    const next = rng(9);
    for (let k = 0; k < 2000; k++) {
      const text = randomText(next, ['a', '\n', ' ', '\t', '\x1c', '😀'], Math.floor(next() * 20));
      const all = [...text.matchAll(/[^\n]*\n|[^\n]+$/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
      expect(splitParagraphs(text, false)).toEqual(all);
      const blank = new RegExp(`^[${PY_WS_CLASS}]*$`);
      expect(splitParagraphs(text)).toEqual(all.filter((p) => !blank.test(text.slice(p.start, p.end))));
    }
  });
});

describe('whitespace_tokenizer_v1', () => {
  it('counts pieces of regex.split: tokens + 1', () => {
    expect(whitespaceTokenPieces('')).toBe(1);
    expect(whitespaceTokenPieces('   ')).toBe(1);
    expect(whitespaceTokenPieces('Hello, world!')).toBe(5); // "Hello" "," "world" "!" → 4 tokens
    expect(whitespaceTokenPieces('it\u0301s_ok 😀😀')).toBe(3); // combining mark and "_" are word characters
  });

  it('agrees with the regex on random texts', () => {
    const next = rng(4);
    const alphabet = ['a', 'Z', '1', '_', '-', '!', ' ', '\n', '\x1c', '\u0301', 'é', '😀', '\ud800', '中', '\u200d', '\u3000'];
    for (let k = 0; k < 3000; k++) {
      const text = randomText(next, alphabet, Math.floor(next() * 25));
      expect(whitespaceTokenPieces(text), JSON.stringify(text)).toBe(referencePieces(text));
    }
  });

  it('with paragraphs: one span per paragraph, document = their sum', async () => {
    expect(await tagText(whitespaceTokenizerWithParagraphsV1, 'a b\n\n c!')).toEqual([
      [0, 4, 3, 'paragraph'],
      [5, 8, 3, 'paragraph'],
      [0, 8, 6, 'document'],
    ]);
    expect(await tagText(whitespaceTokenizerWithParagraphsV1, '')).toEqual([[0, 0, 0, 'document']]);
    expect(await tagText(whitespaceTokenizerV1, 'a b\n\n c!')).toEqual([[0, 8, 5, 'length']]);
  });
});

describe('char_length_with_paragraphs_v1', () => {
  it('paragraph lengths include the newline and count code points', async () => {
    expect(await tagText(charLengthWithParagraphsV1, '😀 a\n  \nb')).toEqual([
      [0, 4, 4, 'paragraph'],
      [7, 8, 1, 'paragraph'],
      [0, 8, 8, 'document'],
    ]);
  });
});
