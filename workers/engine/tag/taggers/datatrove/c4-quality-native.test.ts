// c4_quality's line loop in C (native/c4-quality.c) against the JavaScript, on random documents and option mixes.
import { describe, expect, it } from 'vitest';
import { nativeAddon } from '../../../native-addon.js';
import { PUNCT_P_BMP_RANGES } from '../../../text/bmp-ranges.js';
import { c4QualityJs, c4QualityNative, c4QualityOptions, POLICY } from './c4-quality.js';

const LINES = [
  'This is a proper sentence with words.', 'Another line. It has two sentences! And a third?', 'Short line', '  Indented line with trailing spaces.   ',
  'Ends with an ellipsis...', 'Quote line that ends with a quote."', "Single quote ends it'", 'LOREM Ipsum dolor sit amet.', 'Needs JavaScript to run.',
  'We Use Cookies here, see the Privacy Policy.', 'Read the terms of use before.', 'Our site Uses Cookies daily.', 'A cookie POLICY applies.', 'A { brace } in a line.', 'Words  with   double   spaces.',
  'Wait‼ Really？ Yes｡ Done。', 'Dots . . . and ?! marks !? here.', '“Quoted” — dashes – and ‘apostrophes’.', 'A supercalifragilisticexpialidocious word.',
  'Emoji 😀 in a line. Next one.', 'Astral end 𑁇 here. And more.', 'İstanbul is a city.', 'The \u212aelvin sign.', 'A citation [1] here.', 'Not a citation [x] here.',
  'Empty brackets [] here.', 'Arabic digits [١] here.', 'See [edit] there.', 'Astral digit [\u{1d7d9}] cited.', 'Two [12][edit] at once.',
  // Every policy phrase on its own (the C holds its own copy of the list), in capitals.
  ...POLICY.map((p) => `A line on ${p.toUpperCase()} here.`),
  'Unclosed [citation needed here.', '[3] Cited at the start.', 'Cited at the end.[4]', 'Java[1]Script split by a citation.', '', '   ', '\t', '... ... ...', '(parenthesis). Then more.', 'e.g. this, i.e. that.',
];
const BREAKS = ['\n', '\n', '\n\n', '\r\n', '\r', '\u2028', '\x0b', '\x1c', '\u0085'];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

describe('c4_quality in C', () => {
  const addon = nativeAddon();
  const variants = [
    {},
    { filter_no_terminal_punct: false },
    { filter_no_terminal_punct: false, min_words_per_line: 0 },
    { max_word_length: 6, min_words_per_line: 1 },
    { min_num_sentences: -1, max_word_length: -1 },
    { remove_citations: false, min_words_per_line: 2 },
    { filter_lorem_ipsum: false, filter_javascript: false, filter_policy: false, filter_curly_bracket: false },
  ].map((v) => c4QualityOptions.parse(v));

  it.skipIf(addon === null)('gives the JavaScript result on 6,000 random documents, or hands the document back', () => {
    let native = 0;
    for (let seed = 0; seed < 6000; seed++) {
      const next = random(seed);
      let text = next() < 0.2 ? BREAKS[Math.floor(next() * BREAKS.length)]! : '';
      for (let k = 1 + Math.floor(next() * 10); k > 0; k--) text += LINES[Math.floor(next() * LINES.length)]! + BREAKS[Math.floor(next() * BREAKS.length)]!;
      if (next() < 0.5) text = text.trimEnd();
      const o = variants[seed % variants.length]!;
      const c = c4QualityNative(addon!, text, o);
      if (c === null) continue;
      native++;
      expect(c, `seed ${seed}: ${JSON.stringify(text)}`).toEqual(c4QualityJs(text, o));
    }
    // Most documents take the C path; the rest hold İ, the Kelvin sign or an astral token.
    expect(native).toBeGreaterThan(3000);
  });

  it.skipIf(addon === null)('hands back exactly the documents it cannot follow', () => {
    const o = variants[0]!;
    expect(c4QualityNative(addon!, 'İstanbul is a city of words.', o)).toBeNull();
    expect(c4QualityNative(addon!, 'The \u212aelvin sign in a line of words.', o)).toBeNull();
    expect(c4QualityNative(addon!, 'An astral 𑁇 token in a line.', o)).toBeNull();
    expect(c4QualityNative(addon!, 'A citation [1] in a line of words.', o)).not.toBeNull();
    // İ does not matter where no phrase is looked for.
    const noPhrases = c4QualityOptions.parse({ filter_lorem_ipsum: false, filter_javascript: false, filter_policy: false });
    expect(c4QualityNative(addon!, 'İstanbul is a city of words.', noPhrases)).not.toBeNull();
  });

  it('the punctuation ranges are \\p{P} (this Node\'s) for every BMP unit', () => {
    const marked = new Uint8Array(0x10000);
    for (let k = 0; k < PUNCT_P_BMP_RANGES.length; k += 2) marked.fill(1, PUNCT_P_BMP_RANGES[k]!, PUNCT_P_BMP_RANGES[k + 1]! + 1);
    const wrong: string[] = [];
    for (let u = 0; u < 0x10000; u++) if ((marked[u] === 1) !== /^\p{P}$/u.test(String.fromCharCode(u))) wrong.push(`U+${u.toString(16)}`);
    expect(wrong).toEqual([]);
  });

  it.skipIf(addon === null)('refuses offsets outside the text', () => {
    const tables = addon!.c4QualityTables(Uint16Array.of(0x21, 0x23), Uint16Array.of(0x2e), Int32Array.of());
    const call = (lines: number[], starts: number[], ends: number[]) =>
      addon!.c4Quality(tables, 'ab cd.', Int32Array.from(lines), Int32Array.from(starts), Int32Array.from(ends), Int32Array.of(0, 0, -1, 0, -1, 0, 0, 0, 0), new Int32Array(12), new Float64Array(8), new Int32Array(6), new Int32Array(2));
    expect(call([0, 6, 6], [0, 3], [2, 6])).toBe('ab cd.');
    expect(() => call([0, 7, 7], [0], [2])).toThrow(/line offsets/);
    expect(() => call([0, 6, 6], [0, 1], [2, 6])).toThrow(/token offsets/);
    expect(() => call([0, 6, 6], [0], [9])).toThrow(/token offsets/);
    expect(() => addon!.c4QualityTables(Uint16Array.of(5, 3), Uint16Array.of(), Int32Array.of())).toThrow(/punctuation/);
    expect(() => addon!.c4QualityTables(Uint16Array.of(), Uint16Array.of(), Int32Array.of(9, 8))).toThrow(/digits/);
  });
});
