// Word tokenization: spaCy-en rules against the upstream fixture and known spaCy behaviour; the NLTK approximation.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../testing.js';
import { spacyTokenOffsets, splitIntoWords, splitIntoWordsNltk } from './words.js';

const cases = readFileSync(join(CONFORMANCE, 'datatrove/cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('splitIntoWords (spaCy blank("en") tokens, stripped)', () => {
  it('reproduces the upstream-asserted 71 tokens', () => {
    const c = cases.find((x) => x['id'] === 'word_tokenize_en_1');
    expect(c).toBeDefined();
    expect(splitIntoWords(String(c?.['text']), 'en')).toEqual(c?.['expected_tokens']);
  });

  it('applies the tokenizer exceptions, with and without apostrophes', () => {
    const t = (s: string) => splitIntoWords(s);
    expect(t("don't")).toEqual(['do', "n't"]);
    expect(t('dont')).toEqual(['do', 'nt']);
    expect(t('cannot')).toEqual(['can', 'not']);
    expect(t('gonna')).toEqual(['gon', 'na']);
    expect(t('im')).toEqual(['i', 'm']);
    expect(t('its')).toEqual(['its']); // excluded upstream
    expect(t('don’t')).toEqual(['do', 'n’t']); // expand_exc adds the curly apostrophe twins
    expect(t("I'm")).toEqual(['I', "'m"]);
    expect(t('3pm')).toEqual(['3', 'pm']);
  });

  it('splits prefixes, suffixes and infixes like spaCy', () => {
    const t = (s: string) => splitIntoWords(s);
    expect(t("time,'")).toEqual(['time', ',', "'"]);
    expect(t('well-written')).toEqual(['well', '-', 'written']);
    expect(t('(e.g.)')).toEqual(['(', 'e.g.', ')']);
    expect(t('$5.00')).toEqual(['$', '5.00']);
    expect(t('5km')).toEqual(['5', 'km']);
    expect(t('10.5%')).toEqual(['10.5', '%']);
    expect(t('a--b')).toEqual(['a', '--', 'b']);
    expect(t('foo...')).toEqual(['foo', '...']);
    expect(t('“Hello,” he said.')).toEqual(['“', 'Hello', ',', '”', 'he', 'said', '.']);
    expect(t("O'Neil's")).toEqual(["O'Neil", "'s"]);
  });

  it('keeps URLs and emails whole, then splits trailing punctuation', () => {
    expect(splitIntoWords('http://www.example.com/path?x=1,')).toEqual(['http://www.example.com/path?x=1', ',']);
    expect(splitIntoWords('x@y.com.')).toEqual(['x@y.com', '.']);
  });

  it('re-merges special cases split by affix rules (the final matcher pass)', () => {
    expect(splitIntoWords('hello:)')).toEqual(['hello', ':)']);
    expect(splitIntoWords('Mr.Smith')).toEqual(['Mr.', 'Smith']);
  });

  it('drops whitespace tokens but keeps them in the raw token stream', () => {
    const text = 'a  b\n\n c ';
    expect(splitIntoWords(text)).toEqual(['a', 'b', 'c']);
    const { starts, ends } = spacyTokenOffsets(text);
    const raw = [...starts].map((s, i) => text.slice(s, ends[i]));
    expect(raw).toEqual(['a', ' ', 'b', '\n\n ', 'c']);
  });

  it('handles empty, whitespace-only, astral and lone-surrogate text', () => {
    expect(splitIntoWords('')).toEqual([]);
    expect(splitIntoWords(' \n\t\u3000 ')).toEqual([]);
    expect(splitIntoWords('😀😀 ok')).toEqual(['😀', '😀', 'ok']);
    expect(splitIntoWords('a\ud800b c')).toEqual(['a\ud800b', 'c']);
  });

  it('rejects languages without a tokenizer, naming the field', () => {
    expect(() => splitIntoWords('x', 'fra')).toThrow(/language: no word tokenizer/);
    expect(splitIntoWords('well-written', 'xx')).toEqual(['well', '-', 'written']);
  });
});

describe('splitIntoWordsNltk (FineWeb-era approximation)', () => {
  it('applies Treebank rules per sentence', () => {
    expect(splitIntoWordsNltk('I cannot go. He said "no" and left!')).toEqual([
      'I', 'can', 'not', 'go', '.', 'He', 'said', '``', 'no', "''", 'and', 'left', '!',
    ]);
    expect(splitIntoWordsNltk("Don't stop, it's fine.")).toEqual(['Do', "n't", 'stop', ',', 'it', "'s", 'fine', '.']);
  });
});
