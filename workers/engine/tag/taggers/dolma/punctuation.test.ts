// not_alphanum_paragraph_v1: which paragraphs count as punctuation-only, and the Dolma #123 input.
import { describe, expect, it } from 'vitest';
import { notAlphanumParagraphV1 } from './punctuation.js';
import { tagText } from './test-helpers.js';

describe('not_alphanum_paragraph_v1', () => {
  it('tags punctuation, symbol, space and emoji paragraphs, with their newline', async () => {
    expect(await tagText(notAlphanumParagraphV1, 'Hello\n!!! ***\n😀 ☺ ✂\n$ + ¥\n\n')).toEqual([
      [6, 14, 1, 'all_punct'],
      [14, 20, 1, 'all_punct'],
      [20, 26, 1, 'all_punct'],
    ]);
  });

  it('leaves letters of any script and digits alone; one zero span when nothing qualifies', async () => {
    expect(await tagText(notAlphanumParagraphV1, '中文\n٣\n-a-')).toEqual([[0, 8, 0, 'all_punct']]);
    expect(await tagText(notAlphanumParagraphV1, '')).toEqual([[0, 0, 0, 'all_punct']]);
  });

  it('a 100 000-emoji run ending in a non-matching character finishes at once', async () => {
    const text = '😀'.repeat(100_000) + '中';
    const t = performance.now();
    expect(await tagText(notAlphanumParagraphV1, text)).toEqual([[0, 100_001, 0, 'all_punct']]);
    expect(performance.now() - t).toBeLessThan(8000);
  });

  it('a lone surrogate is not punctuation', async () => {
    expect(await tagText(notAlphanumParagraphV1, '!!\ud800')).toEqual([[0, 3, 0, 'all_punct']]);
  });
});
