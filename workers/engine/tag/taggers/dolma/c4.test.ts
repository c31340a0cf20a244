// c4_v1 / c4_v2 beyond Dolma's unit tests: the bundled word list, v1/v2 differences, ordering.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../native-addon.js';
import { c4V1, c4V2, c4V2Spans, nativeC4V2Spans } from './c4.js';
import { gopherSpans } from './gopher.js';
import { NAUGHTY_LINES } from './naughty-words.js';
import { PhraseMatcher } from './phrases.js';
import { doc, PY_WS_CLASS, randomText, rng, tagText } from './test-helpers.js';

const types = (spans: [number, number, number, string][]) => spans.map((s) => s[3]);

describe('bundled word list', () => {
  it('is naughty_words_en.txt: 403 lines, 3777 bytes with newlines, 124 phrases', () => {
    expect(NAUGHTY_LINES).toHaveLength(403);
    expect(Buffer.byteLength(NAUGHTY_LINES.join('\n') + '\n')).toBe(3777);
    expect(new Set(NAUGHTY_LINES).size).toBe(403);
    expect(NAUGHTY_LINES.filter((w) => w.includes(' '))).toHaveLength(124);
  });

  // Source: the LDNOOBW English list (github.com/LDNOOBW/List-of-Dirty-Naughty-Obscene-and-Otherwise-Bad-Words, file `en`),
  // the list Dolma's c4 taggers load, as the npm package naughty-words@1.2.0 ships it (`en.json`, a devDependency).
  it('is LDNOOBW en as shipped by naughty-words@1.2.0, line for line: 403 lines, sha256 af851ece…', () => {
    const pkg = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('naughty-words/en.json'), 'utf8')) as string[];
    expect(pkg).toEqual(NAUGHTY_LINES);
    const file = NAUGHTY_LINES.join('\n') + '\n';
    expect(createHash('sha256').update(file).digest('hex')).toBe('af851ecef1d5f212caba17339b12ac39cc2fef7d78c74876f67237644fcee8bd');
  });
});

describe('c4 flags', () => {
  it('"javascript" is not a naughty word (it shares the word trie)', async () => {
    for (const spec of [c4V1, c4V2]) expect(types(await tagText(spec, 'I like JavaScript'))).not.toContain('has_naughty_word');
  });

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

  // Expected offsets: Dolma's FasterC4Tagger arithmetic (split and len() on text.lower()) run in CPython 3.11.
  it('c4_v2 line offsets count on the lowered text, as Dolma does: "İ" shifts later spans, past the end', async () => {
    const lines = async (text: string) => (await tagText(c4V2, text)).filter((s) => s[3].startsWith('lines_')).map((s) => [s[0], s[1], s[3][11]]);
    expect(await lines('İİ short\nsecond line here')).toEqual([[0, 11, 'n'], [0, 11, 't'], [11, 27, 'n']]);
    expect(await lines('Line one ends here.\r\nİstanbul is big\r\nok\r\n')).toEqual([[21, 39, 'n'], [39, 43, 'n'], [39, 43, 't'], [43, 43, 'n'], [43, 43, 't']]);
    expect(await lines('a\r\n\r\nİ.\r\nthree words here.')).toEqual([[0, 3, 'n'], [0, 3, 't'], [3, 5, 'n'], [3, 5, 't'], [5, 10, 't']]);
    expect(await lines('ΣΑΣ İ\nx')).toEqual([[0, 7, 'n'], [0, 7, 't'], [7, 8, 'n'], [7, 8, 't']]);
    // The document-wide spans keep len(doc.text).
    expect((await tagText(c4V2, 'İİ short\nsecond line here')).at(-1)).toEqual([0, 25, 2, 'line_count']);
  });

  it('c4_v1 line offsets index the original text (it measures original lines)', async () => {
    const spans = await tagText(c4V1, 'İİ short\nsecond line here');
    expect(spans.filter((s) => s[3] === 'lines_with_no_ending_punctuation').map((s) => s.slice(0, 2))).toEqual([
      [0, 9],
      [9, 25],
    ]);
  });
});

describe.runIf(nativeAddon() !== null)('c4_v2 in C (native/c4.c)', () => {
  const addon = nativeAddon()!;
  it('gives the JavaScript\'s spans on random texts, before and after gopher_v1', () => {
    const next = rng(17);
    const phrases = NAUGHTY_LINES.filter((w) => w.includes(' '));
    const vocab = ['word', 'Two words', 'three words here.', 'end.', 'why?', 'go!', 'say "hi"', 'İ', 'ΣΑΣ', 'é', '😀', '{', 'Lorem Ipsum', 'JavaScript', 'ass', 'ASS.', '\u212Ainky'];
    const seps = [' ', '\n', '\r\n', '\t', '\u3000', '  ', '\n\n', ' \n', '\u2028', '\u0085'];
    for (let k = 0; k < 3000; k++) {
      let text = '';
      for (let i = Math.floor(next() * 8); i > 0; i--) text += (next() < 0.15 ? phrases[Math.floor(next() * phrases.length)]! : randomText(next, vocab, 1)) + randomText(next, seps, 1);
      expect(nativeC4V2Spans(addon, text), JSON.stringify(text)).toEqual(c4V2Spans(text));
      gopherSpans(text);
      expect(nativeC4V2Spans(addon, text), JSON.stringify(text)).toEqual(c4V2Spans(text));
    }
  });

  it('returns every line span when they outnumber its first buffer', () => {
    const text = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const spans = nativeC4V2Spans(addon, text);
    expect(spans.filter((s) => s.type.startsWith('lines_'))).toHaveLength(4000);
    expect(spans).toEqual(c4V2Spans(text));
  });

  it('refuses a phrase table whose transitions leave it', () => {
    const call = (delta: Int32Array) => addon.c4Lines(addon.c4Phrases(delta), 'a b', new Int32Array(9), new Int32Array(2));
    expect(call(new Int32Array(128))).toBe(2);
    expect(() => call(new Int32Array(128).fill(128))).toThrow(/leaves the table/);
    expect(() => call(new Int32Array(100))).toThrow(/delta/);
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

describe('c4_v2 after gopher_v1', () => {
  it('flags the same words from gopher_v1\'s distinct words as from its own scan of the lowered text', async () => {
    const c4 = await c4V2.create({}, { seed: 1, cwd: '.' });
    const next = rng(7);
    // Kelvin sign and dotted İ lowercase to ASCII letters; Σ depends on context; 🖕 is a listed word.
    const vocab = ['javascript', 'JavaScript', 'ass', 'ASS', 'aSs', 'ass.', 'kinky', '\u212Ainky', 'KİNKY', 'İ', 'ΣΑΣ', 'a', 'class', '🖕', '🖕🖕', 'as', 'é', 'viagra', 'VIAGRA,'];
    const seps = [' ', '\n', '\t', '\u3000', '  ', '\r\n'];
    for (let k = 0; k < 3000; k++) {
      let text = '';
      for (let i = Math.floor(next() * 4); i > 0; i--) text += randomText(next, vocab, 1) + randomText(next, seps, 1);
      const alone = c4.tag(doc(text));
      gopherSpans(text);
      expect(c4.tag(doc(text)), JSON.stringify(text)).toEqual(alone);
      const lower = text.toLowerCase().split(new RegExp(`[${PY_WS_CLASS}]+`, 'u'));
      expect(alone.some((s) => s.type === 'has_naughty_word'), JSON.stringify(text)).toBe(lower.some((w) => ['ass', 'kinky', '🖕', 'viagra'].includes(w)));
    }
  });
});
