import { describe, expect, it } from 'vitest';
import type { TagDocument, TaggerSpec } from '../../types.js';
import { docStats } from './doc.js';
import { lineStats, paragraphStats } from './line.js';
import { lineStatsOptions, paragraphStatsOptions, tokenStatsOptions } from './options.js';
import { charClass, DIGIT, pyIsTitle, pyIsUpper } from './pychars.js';
import { gpt2TokenCount, tokenStats } from './tokens.js';
import { countTokens as rawCount } from 'gpt-tokenizer/encoding/r50k_base';
import { generateDocuments } from '../../../demo/generate.js';
import { statsTaggers } from './index.js';
import { growthRatio } from '../../../../../reliability/fuzz-growth.js';

const values = (m: Map<string, { value: number }>): Record<string, number> => Object.fromEntries([...m].map(([k, v]) => [k, v.value]));
const doc = (text: string, metadata: Record<string, unknown> = {}): TagDocument => ({ id: '1', text, source: '', metadata, record: {} });
const spec = (name: string): TaggerSpec<unknown> => {
  const s = statsTaggers.find((t) => t.name === name);
  if (!s) throw new Error(`no ${name}`);
  return s as TaggerSpec<unknown>;
};
async function tag(name: string, text: string, options: unknown = {}) {
  const s = spec(name);
  const tagger = await s.create(s.options ? s.options.parse(options) : {}, { seed: 0, cwd: '.' });
  return tagger.tag(doc(text));
}

describe('Python character predicates', () => {
  it('isdigit includes superscripts and circled digits, not fractions', () => {
    for (const c of ['7', '²', '①', '\u{1F101}', '٣']) expect(charClass(c.codePointAt(0) as number) & DIGIT).toBeTruthy();
    for (const c of ['½', 'a', 'Ⅳ']) expect(charClass(c.codePointAt(0) as number) & DIGIT).toBeFalsy();
  });
  it('str.isupper / str.istitle follow CPython', () => {
    // values checked against CPython 3.11
    expect(['ABC', 'A1', 'Ⓐ', 'ǅ', 'abc', '123', 'AbC', 'ΣΑΣ'].map(pyIsUpper)).toEqual([true, true, true, false, false, false, false, true]);
    expect(['Hello', 'Hello World', 'HeLLo', 'ǅungla', "They'Re", 'A1b', '1', 'hello', 'ABC'].map(pyIsTitle)).toEqual([
      true, true, false, true, true, false, false, false, false,
    ]);
  });
});

describe('doc_stats', () => {
  it('ratios over code points, ellipses matched leftmost', () => {
    expect(values(docStats('Test ...'))).toEqual({
      length: 8,
      white_space_ratio: 0.125,
      non_alpha_digit_ratio: 0.5,
      digit_ratio: 0,
      uppercase_ratio: 0.125,
      elipsis_ratio: 0.375,
      punctuation_ratio: 0.375,
    });
    const astral = values(docStats('😊A\x0b….....'));
    expect(astral.length).toBe(9);
    expect(astral.elipsis_ratio).toBeCloseTo(4 / 9, 12); // "…" + one "..." of the five dots
    expect(astral.punctuation_ratio).toBeCloseTo(7 / 9, 12); // \x0b, …, 5 dots
    expect(astral.white_space_ratio).toBeCloseTo(1 / 9, 12);
  });
  it('empty text: only the length (upstream divides by zero)', async () => {
    expect(values(docStats(''))).toEqual({ length: 0 });
    expect(await tag('doc_stats', '')).toEqual([{ start: 0, end: 0, type: 'length', score: 0 }]);
  });
  it('spans cover the document in UTF-16 units', async () => {
    const spans = await tag('doc_stats', '😊 x');
    expect(spans.find((s) => s.type === 'length')).toEqual({ start: 0, end: 4, type: 'length', score: 3 });
    expect(spans.map((s) => s.type)).toEqual(['length', 'white_space_ratio', 'non_alpha_digit_ratio', 'digit_ratio', 'uppercase_ratio', 'elipsis_ratio', 'punctuation_ratio']);
  });
});

describe('line_stats and paragraph_stats', () => {
  const lineOpts = lineStatsOptions.parse({});
  it('defaults and names', () => {
    const v = values(lineStats('- a\nb.\nb.\n\n', {}, lineOpts));
    expect(v).toEqual({
      n_lines: 5,
      avg_line_length: 7 / 5,
      short_line_ratio_chars_10: 1,
      short_line_ratio_chars_30: 1,
      long_line_ratio_chars_2000: 0,
      long_line_ratio_chars_10000: 0,
      lines_ending_with_terminal_mark_ratio: 0.4,
      bullet_point_lines_ratio: 0.2,
      line_duplicates: 0.4,
      line_char_duplicates: 2 / 7,
    });
  });
  it('ignore_empty_lines, metadata.lines, guarded divisions', () => {
    const o = lineStatsOptions.parse({ ignore_empty_lines: true, max_k_chars_per_line_tresholds: [], min_k_chars_per_line_thresholds: [1] });
    expect(values(lineStats('\n \n', {}, o))).toEqual({
      n_lines: 3,
      avg_line_length: 0,
      long_line_ratio_chars_1: 0,
      lines_ending_with_terminal_mark_ratio: 0,
      bullet_point_lines_ratio: 0,
      line_duplicates: 0,
      line_char_duplicates: 0,
    });
    expect(values(lineStats('ignored', { lines: ['x', 'x'] }, lineOpts)).n_lines).toBe(2);
    expect(() => lineStatsOptions.parse({ max_k_chars_per_line_thresholds: [1] })).toThrow();
  });
  it('paragraphs: non-blank pieces of split("\\n\\n"); none → only the count', () => {
    const o = paragraphStatsOptions.parse({ short_paragraph_max_chars_threshold: [] });
    expect(values(paragraphStats('a\n\n \n\nbb\n\na', o))).toEqual({
      n_paragraphs: 3,
      avg_paragraph_length: 4 / 3,
      short_paragraph_ratio_100: 1,
      long_paragraph_ratio_1000: 0,
      paragraph_duplicates: 1 / 3,
      paragraph_char_duplicates: 1 / 4,
    });
    expect(values(paragraphStats(' \n\n', o))).toEqual({ n_paragraphs: 0 });
  });
});

describe('token_stats', () => {
  it('counts gpt2 tokens, <|endoftext|> anywhere as one token, metadata.token_count reused', () => {
    expect(gpt2TokenCount('hi how are you ?')).toBe(5);
    expect(gpt2TokenCount(' hi hi')).toBe(2);
    expect(gpt2TokenCount('')).toBe(0);
    expect(gpt2TokenCount('a<|endoftext|>b<|endoftext|>')).toBe(4);
    expect(values(tokenStats('whatever', { token_count: 7 }))).toEqual({ token_count: 7 });
    expect(() => tokenStatsOptions.parse({ tokenizer_name_or_path: 'meta-llama/Llama-2-7b' })).toThrow();
  });
});

describe('token_stats on pathological runs', () => {
  it('counts ordinary text exactly as the unchunked BPE does', () => {
    const docs = generateDocuments(300, 5).map((d) => d.text);
    docs.push('See https://example.com/a/very/long/path?with=query&and=more#fragment now.\n\n\n  Indented\tline ' + 'word '.repeat(400));
    for (const text of docs) expect(gpt2TokenCount(text)).toBe(rawCount(text));
  });

  it.each([
    ['newline runs', (n: number) => '\n'.repeat(n)],
    ['space runs', (n: number) => ' '.repeat(n)],
    ['one long word', (n: number) => 'a'.repeat(n)],
    ['digits', (n: number) => '7'.repeat(n)],
    ['emoji', (n: number) => '😀'.repeat(n / 2)],
    ['255-letter words', (n: number) => ('b'.repeat(255) + ' ').repeat(n / 256)],
    ['mixed whitespace', (n: number) => ' \n\t\r'.repeat(n / 4)],
  ])('%s: linear from 10 KB to 1 MB', (_name, make) => {
    // One 1 MB input against a hundred 10 KB ones (reliability/fuzz-growth.ts): linear ≈ 1, one quadratic step ≈ 100.
    // Five rounds, not three: the best of each side, and a loaded CI machine once left all three above 3.
    expect(growthRatio(make, gpt2TokenCount, 5)).toBeLessThan(3);
  });

  it('chunked counts stay close to the exact ones', () => {
    for (const text of ['\n'.repeat(3_000), 'x'.repeat(3_000), `word ${' '.repeat(3_000)}word`]) {
      const exact = rawCount(text);
      expect(Math.abs(gpt2TokenCount(text) - exact)).toBeLessThanOrEqual(Math.ceil(text.length / 128));
    }
  });
});

describe('registry entries', () => {
  it('six document-level stats taggers with described options', () => {
    expect(statsTaggers.map((t) => t.name)).toEqual(['doc_stats', 'line_stats', 'paragraph_stats', 'word_stats', 'words_contamination', 'token_stats']);
    for (const t of statsTaggers) {
      expect(t.outputs.every((o) => o.level === 'document')).toBe(true);
      if (t.options) expect(() => t.options?.parse({ no_such_option: 1 })).toThrow();
    }
  });
  it('runs in linear time (1 MB of lines)', async () => {
    const text = 'The quick brown fox... jumps!\n'.repeat(35_000);
    const t0 = performance.now();
    for (const name of ['doc_stats', 'line_stats', 'paragraph_stats']) await tag(name, text);
    expect(performance.now() - t0).toBeLessThan(10_000);
  });
});
