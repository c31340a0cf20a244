// WordStats and WordsContaminationStats: word counts, lengths, casing, stop words, and watched-word frequency.
import { pyInt, type DocStatValues } from '../../../stats/types.js';
import { cpLength, pySplitlines } from '../../../text/python.js';
import { simplifyText, type TextNormConfig } from '../../../text/simplify.js';
import { splitIntoWords } from '../../../text/words.js';
import { safeDivide, thresholdRatios } from './duplicates.js';
import { pyIsTitle, pyIsUpper } from './pychars.js';

export interface WordStatsOptions {
  stop_words: string[];
  short_word_max_chars_threshold: number[];
  long_word_max_chars_threshold: number[];
  language: string;
}

/**
 * DataTrove `WordStats.extract_stats`: words from the language's word tokenizer (spaCy-en rules
 * for English), lines from `splitlines()`. Divisions are guarded (0.0), as upstream's `_safe_divide` does.
 */
export function wordStats(text: string, o: WordStatsOptions, stopWords: ReadonlySet<string>): DocStatValues {
  const words = splitIntoWords(text, o.language);
  const n = words.length;
  const lengths = words.map(cpLength);
  let upper = 0;
  let title = 0;
  let stop = 0;
  for (const w of words) {
    if (pyIsUpper(w)) upper++;
    if (pyIsTitle(w)) title++;
    if (stopWords.has(w)) stop++;
  }
  const out: DocStatValues = new Map([
    ['n_words', pyInt(n)],
    ['avg_word_length', safeDivide(lengths.reduce((a, b) => a + b, 0), n)],
    ['avg_words_per_line', safeDivide(n, pySplitlines(text).length)],
  ]);
  thresholdRatios(out, lengths, 'short_word_ratio_', o.short_word_max_chars_threshold, (len, k) => len <= k);
  thresholdRatios(out, lengths, 'long_word_ratio_', o.long_word_max_chars_threshold, (len, k) => len >= k);
  out.set('type_token_ratio', safeDivide(new Set(words).size, n));
  out.set('uppercase_word_ratio', safeDivide(upper, n));
  out.set('capitalized_word_ratio', safeDivide(title, n));
  out.set('stop_word_ratio', safeDivide(stop, n));
  return out;
}

export interface WordsContaminationOptions {
  words: string[];
  norm_config: Partial<TextNormConfig>;
  language: string;
}

/**
 * DataTrove `WordsContaminationStats.extract_stats`: the share of the words of `simplify_text(text)`
 * that are in `words`, under the name `words_contamination_{words[0]}` (0.0 for a text without words).
 */
export function wordsContamination(text: string, o: WordsContaminationOptions, watched: ReadonlySet<string>): DocStatValues {
  const words = splitIntoWords(simplifyText(text, o.norm_config), o.language);
  let hits = 0;
  for (const w of words) if (watched.has(w)) hits++;
  return new Map([[contaminationStatName(o.words), safeDivide(hits, words.length)]]);
}

export const contaminationStatName = (words: readonly string[]): string => `words_contamination_${words[0] ?? ''}`;
