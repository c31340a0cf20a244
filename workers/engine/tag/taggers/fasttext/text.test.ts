// Paragraph and sentence units, and the per-tagger fastText input normalisations.
import { describe, expect, it } from 'vitest';
import { dolmaLangInput, newlineToSpaceInput, splitParagraphs, splitSentences, whitespaceJoinInput } from './text.js';

const spans = (units: { start: number; end: number; text: string }[]): [number, number, string][] =>
  units.map((u) => [u.start, u.end, u.text]);

describe('splitParagraphs (Dolma split_paragraphs)', () => {
  it('keeps each line with its newline and an unterminated last line', () => {
    expect(spans(splitParagraphs('ab\ncd\nef'))).toEqual([[0, 3, 'ab\n'], [3, 6, 'cd\n'], [6, 8, 'ef']]);
  });
  it('drops lines that strip() to nothing, Unicode spaces included; \\r stays in the line', () => {
    expect(spans(splitParagraphs('\n \t\n\u3000\u00a0\nx\r\n\n'))).toEqual([[7, 10, 'x\r\n']]);
    expect(splitParagraphs('')).toEqual([]);
    expect(splitParagraphs(' \n ')).toEqual([]);
  });
});

describe('splitSentences (approximation of blingfire/Punkt)', () => {
  it('splits after terminal punctuation followed by whitespace, and at newlines, trimming units', () => {
    const text = '  Hello there! How are you? I am "fine."  Next line\nno stop here…  done';
    expect(splitSentences(text).map((u) => u.text)).toEqual([
      'Hello there!',
      'How are you?',
      'I am "fine."',
      'Next line',
      'no stop here…',
      'done',
    ]);
    for (const u of splitSentences(text)) expect(text.slice(u.start, u.end)).toBe(u.text);
  });
  it('does not split inside numbers or URLs and yields nothing for blank text', () => {
    expect(splitSentences('Pi is 3.14 and see example.com now.').map((u) => u.text)).toEqual(['Pi is 3.14 and see example.com now.']);
    expect(splitSentences(' \n\t ')).toEqual([]);
  });
});

describe('fastText inputs', () => {
  it('Dolma language taggers: lower, newline → space, Python strip', () => {
    expect(dolmaLangInput('\u3000 Hello\nWORLD \u2028')).toBe('hello world');
  });
  it('jigsaw: newline → space and strip, case kept', () => {
    expect(newlineToSpaceInput(' A\nB\r\n')).toBe('A B');
  });
  it('dolma17-quality: whitespace split joined by single spaces', () => {
    expect(whitespaceJoinInput(' a \t b\n\nc\u00a0d ')).toBe('a b c d');
  });
});
