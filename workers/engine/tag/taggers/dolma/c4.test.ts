// c4_v1 / c4_v2 beyond Dolma's unit tests: the bundled word list, v1/v2 differences, ordering.
import { describe, expect, it } from 'vitest';
import { c4V1, c4V2 } from './c4.js';
import { NAUGHTY_LINES } from './naughty-words.js';
import { PhraseMatcher } from './phrases.js';
import { tagText } from './test-helpers.js';

const types = (spans: [number, number, number, string][]) => spans.map((s) => s[3]);

describe('bundled word list', () => {
  it('is naughty_words_en.txt: 403 lines, 3777 bytes with newlines, 124 phrases', () => {
    expect(NAUGHTY_LINES).toHaveLength(403);
    expect(Buffer.byteLength(NAUGHTY_LINES.join('\n') + '\n')).toBe(3777);
    expect(new Set(NAUGHTY_LINES).size).toBe(403);
    expect(NAUGHTY_LINES.filter((w) => w.includes(' '))).toHaveLength(124);
  });
});

describe('c4 flags', () => {
  it('"javascript" is a whole word in v1, a substring in v2', async () => {
    const text = 'I like javascripts.';
    expect(types(await tagText(c4V1, text))).not.toContain('has_javascript');
    expect(types(await tagText(c4V2, text))).toContain('has_javascript');
    expect(types(await tagText(c4V1, 'JavaScript is fun'))).toContain('has_javascript');
  });

  it('matches words case-insensitively with punctuation attached, phrases as substrings', async () => {
    for (const spec of [c4V1, c4V2]) {
      expect(types(await tagText(spec, 'A VIAGRA ad'))).toContain('has_naughty_word');
      expect(types(await tagText(spec, 'send 🖕 now'))).toContain('has_naughty_word');
      expect(types(await tagText(spec, 'viagra, cheap'))).not.toContain('has_naughty_word');
      expect(types(await tagText(spec, 'no_2 girls 1 cupcakes'))).toContain('has_naughty_word');
      expect(types(await tagText(spec, 'two girls\n1 cup'))).not.toContain('has_naughty_word');
    }
  });

  it('emission order differs: v1 lines then flags, v2 flags then interleaved lines', async () => {
    const text = 'Lorem ipsum {\nok';
    expect(types(await tagText(c4V1, text))).toEqual([
      'lines_with_no_ending_punctuation',
      'lines_with_no_ending_punctuation',
      'lines_with_too_few_words',
      'has_lorem_ipsum',
      'has_curly_brace',
      'line_count',
    ]);
    expect(types(await tagText(c4V2, text))).toEqual([
      'has_curly_brace',
      'has_lorem_ipsum',
      'lines_with_no_ending_punctuation',
      'lines_with_no_ending_punctuation',
      'lines_with_too_few_words',
      'line_count',
    ]);
  });

  it('empty and whitespace-only texts: one line without punctuation or words', async () => {
    for (const spec of [c4V1, c4V2]) {
      expect(await tagText(spec, '')).toEqual([
        [0, 0, 1, 'lines_with_no_ending_punctuation'],
        [0, 0, 1, 'lines_with_too_few_words'],
        [0, 0, 1, 'line_count'],
      ]);
      expect((await tagText(spec, ' \n ')).at(-1)).toEqual([0, 3, 2, 'line_count']);
    }
  });

  it('line spans index the original text even where lowercasing changes length (İ)', async () => {
    const spans = await tagText(c4V2, 'İİ short\nsecond line here');
    expect(spans.filter((s) => s[3] === 'lines_with_no_ending_punctuation').map((s) => s.slice(0, 2))).toEqual([
      [0, 9],
      [9, 25],
    ]);
  });
});

describe('PhraseMatcher', () => {
  it('finds any phrase, including overlapping and suffix ones', () => {
    const m = new PhraseMatcher(['abcd', 'bc', 'xyz xy']);
    expect(m.test('zzabz')).toBe(false);
    expect(m.test('zabcz')).toBe(true);
    expect(m.test('xyz xyz xq')).toBe(true);
    expect(m.test('xyz xz')).toBe(false);
    expect(m.test('é')).toBe(false);
  });
});
