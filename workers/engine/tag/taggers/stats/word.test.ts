import { describe, expect, it } from 'vitest';
import { isAssayError } from '../../../errors.js';
import { statsExtractor } from './blocks.js';

const run = (name: string, text: string, kwargs: Record<string, unknown> = {}): Record<string, number> => {
  const extract = statsExtractor(name, kwargs);
  if (!extract) throw new Error(`no ${name}`);
  return Object.fromEntries([...extract({ text, metadata: {} })].map(([k, v]) => [k, v.value]));
};

describe('word_stats', () => {
  it('counts over spaCy-en words and splitlines()', () => {
    expect(run('word_stats', 'Hello WORLD of the Dogs\nsecond line')).toEqual({
      n_words: 7,
      avg_word_length: 29 / 7,
      avg_words_per_line: 3.5,
      short_word_ratio_3: 2 / 7,
      long_word_ratio_7: 0,
      type_token_ratio: 1,
      uppercase_word_ratio: 1 / 7,
      capitalized_word_ratio: 2 / 7,
      stop_word_ratio: 2 / 7,
    });
  });
  it('an empty text gives zeros (guarded divisions), custom thresholds and stop words', () => {
    const v = run('WordStats', '', { short_word_max_chars_threshold: [1, 2], stop_words: ['x'] });
    expect(v).toMatchObject({ n_words: 0, avg_word_length: 0, avg_words_per_line: 0, short_word_ratio_1: 0, short_word_ratio_2: 0 });
    expect(run('word_stats', 'x y x', { stop_words: ['x'] }).stop_word_ratio).toBeCloseTo(2 / 3, 12);
  });
});

describe('words_contamination', () => {
  it('share of the simplified text words that are watched, named after the first word', () => {
    expect(run('words_contamination', 'Delve, DELVE and delve!', { words: ['delve', 'tapestry'] })).toEqual({ words_contamination_delve: 0.75 });
    expect(run('WordsContaminationStats', '', { words: ['delve'] })).toEqual({ words_contamination_delve: 0 });
    // punctuation kept: spaCy splits the comma off, so it counts as a word
    const kept = run('words_contamination', 'Delve, delve', { words: ['delve'], norm_config: { remove_punctuation: false } });
    expect(kept.words_contamination_delve).toBeCloseTo(2 / 3, 12);
  });
  it('rejects an empty word list as a CONFIG error', () => {
    try {
      statsExtractor('words_contamination', { words: [] });
      expect.fail('no error');
    } catch (e) {
      expect(isAssayError(e) && e.code === 'CONFIG' && e.field === 'words_contamination').toBe(true);
    }
  });
});
