// Option schemas of the stats taggers: DataTrove's constructor arguments, same names and defaults.
import { z } from 'zod';
import { STOP_WORDS } from './pychars.js';

/** Thresholds list; `or [default]` upstream, so an empty list also means the default. */
const thresholds = (def: number[], what: string) =>
  z
    .array(z.number().int().nonnegative())
    .default(def)
    .transform((v) => (v.length > 0 ? v : def))
    .describe(what);

/** Thresholds list with `is not None` upstream: an empty list computes no ratio. */
const thresholdsOrEmpty = (def: number[], what: string) => z.array(z.number().int().nonnegative()).default(def).describe(what);

const language = z
  .string()
  .min(1)
  .default('eng')
  .describe('Language of the word tokenizer (DataTrove `language`): eng / en / eng_Latn / en_Latn use spaCy-en rules, xx the multi-language blank');

export const lineStatsOptions = z
  .object({
    max_k_chars_per_line_tresholds: thresholdsOrEmpty(
      [10, 30],
      'Emit short_line_ratio_chars_{k}: share of lines with at most k characters (DataTrove spells it "tresholds")',
    ),
    min_k_chars_per_line_thresholds: thresholdsOrEmpty(
      [2000, 10000],
      'Emit long_line_ratio_chars_{k}: share of lines with at least k characters',
    ),
    ignore_empty_lines: z
      .boolean()
      .default(false)
      .describe('Leave whitespace-only lines out of every ratio (n_lines still counts them)'),
  })
  .strict();

export const paragraphStatsOptions = z
  .object({
    short_paragraph_max_chars_threshold: thresholds([100], 'Emit short_paragraph_ratio_{k}: share of paragraphs with at most k characters'),
    long_paragraph_max_chars_threshold: thresholds([1000], 'Emit long_paragraph_ratio_{k}: share of paragraphs with at least k characters'),
    ignore_empty_paragraphs: z
      .boolean()
      .default(false)
      .describe('Accepted for DataTrove compatibility; blank paragraphs are always left out'),
  })
  .strict();

export const wordStatsOptions = z
  .object({
    stop_words: z.array(z.string()).default(STOP_WORDS).describe('Words stop_word_ratio counts (case-sensitive; default: the Gopher stop words)'),
    short_word_max_chars_threshold: thresholds([3], 'Emit short_word_ratio_{k}: share of words with at most k characters'),
    long_word_max_chars_threshold: thresholds([7], 'Emit long_word_ratio_{k}: share of words with at least k characters'),
    language,
  })
  .strict();

export const wordsContaminationOptions = z
  .object({
    words: z
      .array(z.string().min(1))
      .min(1, 'at least one word must be provided')
      .describe('Watched words; the output is named words_contamination_{first word}'),
    norm_config: z
      .object({
        lowercase: z.boolean(),
        norm_whitespace: z.boolean(),
        remove_punctuation: z.boolean(),
        norm_unicode_diacritics: z.boolean(),
        norm_numbers: z.boolean(),
        norm_weekdays: z.boolean(),
        norm_monthnames: z.boolean(),
      })
      .partial()
      .strict()
      .default({})
      .describe('TextNormConfig for simplify_text before tokenizing (fields default as upstream: all on but weekdays/months)'),
    language,
  })
  .strict();

export const tokenStatsOptions = z
  .object({
    tokenizer_name_or_path: z
      .literal('gpt2')
      .default('gpt2')
      .describe('Tokenizer; only gpt2 (r50k_base BPE, bundled with gpt-tokenizer) is available offline'),
  })
  .strict();
