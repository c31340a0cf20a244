// DataTrove's summary-statistics extractors as taggers: each stat becomes a document-level span named like the stat.
import type { TaggerOutput, TaggerSpec } from '../../types.js';
import { STATS_BLOCKS } from './blocks.js';
import { docOutput as out, statsTagger } from './spec.js';

const RATIO = '[0, 1]';
const CHARS = '≥ 0 (code points)';

/** Listing text per tagger: one-line description and the outputs (`*` = a threshold or word from the options). */
const DOCS: Record<string, [string, TaggerOutput[]]> = {
  doc_stats: [
    'DataTrove DocStats: length and whitespace / digit / uppercase / ellipsis / punctuation ratios',
    [
      out('length', 'Length of the text', CHARS),
      out('white_space_ratio', 'Share of whitespace characters (ratios are omitted for an empty text)', RATIO),
      out('non_alpha_digit_ratio', 'Share of characters that are neither letters nor digits', RATIO),
      out('digit_ratio', 'Share of digits (str.isdigit)', RATIO),
      out('uppercase_ratio', 'Share of uppercase characters', RATIO),
      out('elipsis_ratio', 'Share of characters inside "..." or "…"', RATIO),
      out('punctuation_ratio', "Share of characters in DataTrove's PUNCTUATION", RATIO),
    ],
  ],
  line_stats: [
    'DataTrove LineStats: line count, lengths, short/long/bullet/terminal-mark/duplicate line shares',
    [
      out('n_lines', 'Lines (text.split("\\n"), or metadata.lines)', '≥ 1'),
      out('avg_line_length', 'Mean line length', CHARS),
      out('short_line_ratio_chars_*', 'Share of lines with at most * characters', RATIO),
      out('long_line_ratio_chars_*', 'Share of lines with at least * characters', RATIO),
      out('lines_ending_with_terminal_mark_ratio', 'Share of lines ending with . ? ! " or \'', RATIO),
      out('bullet_point_lines_ratio', 'Share of lines starting with - * or • (after stripping)', RATIO),
      out('line_duplicates', 'Share of lines repeating an earlier line', RATIO),
      out('line_char_duplicates', 'Share of line characters in repeated lines', RATIO),
    ],
  ],
  paragraph_stats: [
    'DataTrove ParagraphStats: paragraph count, lengths, short/long/duplicate paragraph shares',
    [
      out('n_paragraphs', 'Non-blank pieces of text.split("\\n\\n")', '≥ 0'),
      out('avg_paragraph_length', 'Mean paragraph length (this and the ratios are omitted without paragraphs)', CHARS),
      out('short_paragraph_ratio_*', 'Share of paragraphs with at most * characters', RATIO),
      out('long_paragraph_ratio_*', 'Share of paragraphs with at least * characters', RATIO),
      out('paragraph_duplicates', 'Share of paragraphs repeating an earlier one', RATIO),
      out('paragraph_char_duplicates', 'Share of paragraph characters in repeated paragraphs', RATIO),
    ],
  ],
  word_stats: [
    'DataTrove WordStats: word count, lengths, words per line, type/token, casing and stop-word shares',
    [
      out('n_words', 'Words (spaCy-en word tokenizer)', '≥ 0'),
      out('avg_word_length', 'Mean word length', CHARS),
      out('avg_words_per_line', 'Words per line (splitlines)', '≥ 0'),
      out('short_word_ratio_*', 'Share of words with at most * characters', RATIO),
      out('long_word_ratio_*', 'Share of words with at least * characters', RATIO),
      out('type_token_ratio', 'Distinct words / words', RATIO),
      out('uppercase_word_ratio', 'Share of words that are all uppercase (str.isupper)', RATIO),
      out('capitalized_word_ratio', 'Share of title-case words (str.istitle)', RATIO),
      out('stop_word_ratio', 'Share of stop words', RATIO),
    ],
  ],
  words_contamination: [
    'DataTrove WordsContaminationStats: share of the words of the simplified text that are watched words',
    [out('words_contamination_*', 'Share of the words of simplify_text(text) in the watched list; * is its first word', RATIO)],
  ],
  token_stats: [
    'DataTrove TokenStats: GPT-2 token count (metadata.token_count when present)',
    [out('token_count', 'GPT-2 BPE tokens', '≥ 0')],
  ],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each spec has its own options type
export const statsTaggers: TaggerSpec<any>[] = STATS_BLOCKS.map((b) => {
  const [description, outputs] = DOCS[b.tagger] ?? [b.className, []];
  return statsTagger(b, description, outputs);
});
