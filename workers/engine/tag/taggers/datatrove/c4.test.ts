// c4_quality and symbol_lines_formatter: line edits reproduce DataTrove's rewritten text; document rules in order.
import { describe, expect, it } from 'vitest';
import { applySpans } from './cases.js';
import { c4Quality, c4QualityOptions, LOWERS_TO_ASCII, POLICY } from './c4-quality.js';
import { symbolLineSpans, symbolLinesOptions } from './symbol-lines.js';

const EDITS = (joiner: string) => (t: string) => ({ line_removed: '', trimmed: '', separator: joiner })[t];

let seed = 5;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
const pick = <T,>(xs: readonly T[]): T => xs[rnd(xs.length)] as T;

const LINES = [
  'This is a proper sentence with words.',
  'Another line. It has two sentences!',
  'Short line',
  '  Indented line with trailing spaces.   ',
  'A line with a citation [1] and [edit] marks.',
  'javascript is required for this page.',
  'We use cookies to improve your visit.',
  '',
  '   ',
  'Ends with an ellipsis...',
  'Quote line that ends with a quote."',
  '[12]',
  '[1] [2] [3]',
  'word [citation needed]',
];
const BREAKS = ['\n', '\n', '\r\n', '\r', '\u2028', '\x0b'];

function randomDoc(): string {
  let t = '';
  const n = 1 + rnd(8);
  for (let i = 0; i < n; i++) t += pick(LINES) + (i < n - 1 || rnd(2) ? pick(BREAKS) : '');
  return rnd(4) === 0 ? pick(BREAKS) + t : t;
}

describe('c4_quality line edits', () => {
  it('turn the text into DataTrove\'s rewritten text (paragraph mode, every option mix)', () => {
    const variants = [
      { min_num_sentences: -1 },
      { min_num_sentences: -1, filter_no_terminal_punct: false },
      { min_num_sentences: -1, min_words_per_line: -1, remove_citations: false },
      { min_num_sentences: -1, min_words_per_line: -1, filter_no_terminal_punct: false },
    ].map((v) => c4QualityOptions.parse(v));
    for (let k = 0; k < 1500; k++) {
      const text = randomDoc();
      for (const o of variants) {
        const r = c4Quality(text, o);
        expect(applySpans(text, r.edits, EDITS('\n')), JSON.stringify(text)).toBe(r.text);
        expect(r.edits.every((s, i) => i === 0 || (r.edits[i - 1] as { start: number }).start <= s.start)).toBe(true);
      }
    }
  });

  it('does the same in sentence mode (split_paragraph=False, kept sentences joined by " ")', () => {
    const o = c4QualityOptions.parse({ split_paragraph: false, min_num_sentences: -1, min_words_per_line: 2 });
    for (let k = 0; k < 300; k++) {
      const text = Array.from({ length: 1 + rnd(5) }, () => pick(['One two three.', 'Four!', 'Uses cookies here.', 'Citation [3] ok.'])).join(pick([' ', '  ', '\n', ' \n ']));
      const r = c4Quality(text, o);
      expect(applySpans(text, r.edits, EDITS(' ')), JSON.stringify(text)).toBe(r.text);
    }
  });

  it('applies FineWeb\'s configuration: no terminal-punctuation rule, short/javascript/policy lines dropped', () => {
    const text = 'Nice title\nThis line has enough words in it\nWe use cookies on this site\nEnable javascript to continue here\nAnd a final line with words [2]';
    const r = c4Quality(text, c4QualityOptions.parse({ filter_no_terminal_punct: false, min_num_sentences: 1 }));
    expect(r.text).toBe('This line has enough words in it\nAnd a final line with words');
    expect(r.outcomes.find((x) => x.fail)).toBeUndefined();
    expect(r.linesRemoved).toBe(3);
  });

  it('drops documents for lorem ipsum, "{" and too few sentences, first reason first', () => {
    const first = (t: string) => c4Quality(t, c4QualityOptions.parse({})).outcomes.find((x) => x.fail)?.rule;
    expect(first('Has a { brace here.\nThen lorem ipsum dolor sit.')).toBe('curly_bracket');
    expect(first('Then lorem ipsum dolor sit.\nHas a { brace here.')).toBe('lorem_ipsum');
    expect(first('Just one sentence here.')).toBe('too_few_sentences');
  });
});

describe('symbol_lines_formatter', () => {
  it('replaces the first line of a symbol run with replace_char and keeps CRLF lines intact', () => {
    const text = '---\r\n***\r\nreal text\r\n|\nend';
    const o = symbolLinesOptions.parse({ replace_char: '~' });
    const out = applySpans(text, symbolLineSpans(text, o), (t) => (t === 'line_replaced' ? '~' : EDITS('\n')(t)));
    expect(out).toBe('~\nreal text\n~\nend');
  });
});

describe('c4_quality phrase rules', () => {
  // Phrases in any case, joined only once citations are cut out, and characters whose lowercase is context-dependent
  // (Σ) or longer (İ) or ASCII from outside ASCII (the Kelvin sign, \u212a).
  const PIECES = ['Lorem Ipsum', 'lorem [1]ipsum', 'JAVA[edit]SCRIPT', 'javascrİpt', 'cooKie policy', 'use coo\u212aies', 'USE COOKIES', 'use of[2] cookies', 'terms of use', 'ΣΑΣ', 'word', 'two words', '[3]', ' ', 'privacy'];
  const o = c4QualityOptions.parse({ filter_no_terminal_punct: false, min_words_per_line: 1, filter_curly_bracket: false, min_num_sentences: -1 });
  const phrase = (lower: string) =>
    ['javascript', 'terms of use', 'privacy policy', 'cookie policy', 'uses cookies', 'use of cookies', 'use cookies'].some((p) => lower.includes(p));

  it('drop the lines whose own lowered text has the phrase', () => {
    for (let t = 0; t < 400; t++) {
      const lines = Array.from({ length: 1 + rnd(6) }, () => Array.from({ length: 1 + rnd(4) }, () => pick(PIECES)).join(' '));
      const text = lines.join('\n');
      let kept = 0;
      let lorem = false;
      for (const l of lines) {
        const line = l.trim().replace(/\[\p{Nd}*\]|\[edit\]|\[citation needed\]/gu, '');
        if (l.trim().split(/\s+/).filter(Boolean).length < 1) continue;
        const lower = line.toLowerCase();
        if (lower.includes('lorem ipsum')) lorem = true;
        else if (!phrase(lower)) kept++;
      }
      const r = c4Quality(text, o);
      expect(r.linesKept, JSON.stringify(text)).toBe(kept);
      expect(r.outcomes.find((x) => x.rule === 'lorem_ipsum')?.value, JSON.stringify(text)).toBe(lorem ? 1 : 0);
    }
  });

  it('are each found by the whole-text search that decides whether lines are lowered (cookie, policy, terms of use)', () => {
    for (const p of POLICY) expect(p.includes('cookie') || p.includes('policy') || p === 'terms of use', p).toBe(true);
  });

  it('are found in any text whose only non-ASCII characters lowering to ASCII are LOWERS_TO_ASCII', () => {
    // The whole-text search matches ASCII in any case: it relies on no other character lowering to ASCII, and on a
    // non-unicode /i regex never matching an ASCII letter with another character.
    const lowersToAscii: string[] = [];
    const foldsToAscii: string[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      if (/[\0-\x7f]/.test(ch.toLowerCase())) lowersToAscii.push(ch);
      if (c <= 0xffff && /[a-z]/i.test(ch)) foldsToAscii.push(ch);
    }
    expect(lowersToAscii.join('')).toBe(LOWERS_TO_ASCII);
    expect(foldsToAscii).toEqual([]);
  });
});
