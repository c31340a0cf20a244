// gopher_v1 (`taggers/gopher.py`): Gopher quality statistics as document-level spans, in Dolma's emission order.
import type { TaggerSpec, TagSpan } from '../../types.js';
import { gopherCounts } from './gopher-stats.js';
import { docOutput } from './text.js';
import { primeOnce } from './warm-up.js';

/** The spans of gopher_v1 for one text, in `GopherAttributes.as_spans()` order. */
export function gopherSpans(text: string): TagSpan[] {
  const end = text.length;
  const spans: TagSpan[] = [];
  const add = (type: string, score: number) => spans.push({ start: 0, end, type, score });
  if (text.length === 0) {
    // Dolma returns early: every scalar 0 and no n-gram attribute (10 spans).
    for (const t of SCALARS) add(t, 0);
    return spans;
  }
  const w = gopherCounts(text);
  const count = w.words;
  // Whitespace is never a surrogate, so every pair lies inside a word.
  const characterCount = text.length - w.pairs;
  const grams = w.grams;
  const denom = Math.max(w.chars, 1);
  for (const g of grams) if (g.n <= 4) add(NGRAM_TYPES[g.n]!, g.mostCommonChars / denom);
  for (const g of grams) if (g.n >= 5) add(NGRAM_TYPES[g.n]!, g.duplicateChars / Math.max(g.totalChars, 1));
  const lines = w.lines;
  const values = [
    characterCount,
    count,
    w.twiceMedian / 2,
    w.symbolWords / Math.max(count, 1),
    w.alphaWords / Math.max(count, 1),
    w.requiredWords,
    lines.bullet,
    lines.ellipsis,
    lines.duplicateLines,
    lines.duplicateLineChars,
  ];
  SCALARS.forEach((t, k) => add(t, values[k]!));
  return spans;
}

/** Span type of each n-gram order (index n), made once rather than per document. */
const NGRAM_TYPES = Array.from({ length: 11 }, (_, n) => (n <= 4 ? `fraction_of_characters_in_most_common_${n}grams` : `fraction_of_characters_in_duplicate_${n}grams`));

const SCALARS = [
  'character_count',
  'word_count',
  'median_word_length',
  'symbol_to_word_ratio',
  'fraction_of_words_with_alpha_character',
  'required_word_count',
  'fraction_of_lines_starting_with_bullet_point',
  'fraction_of_lines_ending_with_ellipsis',
  'fraction_of_duplicate_lines',
  'fraction_of_characters_in_duplicate_lines',
] as const;

const ngramOutputs = [
  ...[2, 3, 4].map((n) => docOutput(`fraction_of_characters_in_most_common_${n}grams`, `count × characters of the most frequent word ${n}-gram / non-space characters; absent below ${n} words`, '[0, 1]')),
  ...[5, 6, 7, 8, 9, 10].map((n) =>
    docOutput(`fraction_of_characters_in_duplicate_${n}grams`, `Σ count × characters of repeated word ${n}-grams / the same over all ${n}-grams (overlaps double-counted); absent below ${n} words`, '[0, 1]'),
  ),
];

export const gopherV1: TaggerSpec = {
  name: 'gopher_v1',
  description: 'Gopher (Rae et al. 2021) quality statistics: words, symbols, bullets, duplicate lines and n-grams',
  outputs: [
    ...ngramOutputs,
    docOutput('character_count', 'len(text) in code points', '≥ 0'),
    docOutput('word_count', 'Number of whitespace-separated words', '≥ 0'),
    docOutput('median_word_length', 'Median word length in code points (0 without words)', '≥ 0'),
    docOutput('symbol_to_word_ratio', 'Words containing "#" or "…" / words', '[0, 1]'),
    docOutput('fraction_of_words_with_alpha_character', 'Words with at least one letter / words', '[0, 1]'),
    docOutput('required_word_count', 'Words exactly equal to the, be, to, of, and, that, have or with (case-sensitive)', '≥ 0'),
    docOutput('fraction_of_lines_starting_with_bullet_point', 'Lines (split on \\n) starting with "*" or "-" / lines', '[0, 1]'),
    docOutput('fraction_of_lines_ending_with_ellipsis', 'Lines ending with "…" (U+2026 only) / lines', '[0, 1]'),
    docOutput('fraction_of_duplicate_lines', 'Lines whose text occurs more than once (empty lines too) / lines', '[0, 1]'),
    docOutput('fraction_of_characters_in_duplicate_lines', 'Characters of repeated lines / non-space characters (Dolma quirk: can exceed 1)', '≥ 0'),
  ],
  create: (_options, ctx) => {
    primeOnce('gopher_v1', gopherSpans, ctx);
    return { tag: (doc) => gopherSpans(doc.text) };
  },
};
