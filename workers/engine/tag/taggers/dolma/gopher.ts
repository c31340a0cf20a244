// gopher_v1 (`taggers/gopher.py`): Gopher quality statistics as document-level spans, in Dolma's emission order.
import type { TaggerSpec, TagSpan } from '../../types.js';
import { ngramStats } from './ngrams.js';
import { docOutput, isPyWs } from './text.js';
import { WordIds } from './word-ids.js';

const REQUIRED_ENGLISH_WORDS = new Set(['the', 'be', 'to', 'of', 'and', 'that', 'have', 'with']);
const LETTER = /\p{L}/u;

interface WordStats {
  ids: Int32Array;
  lens: Int32Array;
  chars: number;
  symbolWords: number;
  alphaWords: number;
  requiredWords: number;
  median: number;
}

/** One pass over `text.split()`: word ids, lengths in code points, and the per-word counts. */
function wordStats(text: string): WordStats {
  const n = text.length;
  const table = new WordIds(text, (n >> 3) + 8);
  let ids = new Int32Array((n >> 2) + 8);
  let count = 0;
  const lenList: number[] = [];
  /** Per id: 1 when the word has a letter, 2 when it is a required English word. */
  const flags: number[] = [];
  const lenHist: number[] = [];
  let chars = 0;
  let symbolWords = 0;
  let alphaWords = 0;
  let requiredWords = 0;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWs(text.charCodeAt(i))) i++;
    if (i >= n) break;
    const a = i;
    let len = 0;
    let ascii = true;
    let alpha = false;
    let symbol = false;
    let h = 0x811c9dc5 | 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (isPyWs(c)) break;
      h = Math.imul(h ^ c, 0x01000193);
      len++;
      if (c >= 0xdc00 && c <= 0xdfff && i > a && isHigh(text.charCodeAt(i - 1))) len--;
      if (c >= 0x80) ascii = false;
      else if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) alpha = true;
      if (c === 0x23 || c === 0x2026) symbol = true;
    }
    const id = table.id(h, a, i);
    if (table.isNew) {
      const word = text.slice(a, i);
      // str.isalpha() per character is Unicode category L*; only non-ASCII words need the regex.
      if (!alpha && !ascii) alpha = LETTER.test(word);
      lenList.push(len);
      flags.push((alpha ? 1 : 0) | (REQUIRED_ENGLISH_WORDS.has(word) ? 2 : 0));
    }
    if (count === ids.length) {
      const grown = new Int32Array(count * 2);
      grown.set(ids);
      ids = grown;
    }
    ids[count++] = id;
    chars += len;
    lenHist[len] = (lenHist[len] ?? 0) + 1;
    if (symbol) symbolWords++;
    const f = flags[id] as number;
    if ((f & 1) !== 0) alphaWords++;
    if ((f & 2) !== 0) requiredWords++;
  }
  return {
    ids: ids.slice(0, count),
    lens: Int32Array.from(lenList),
    chars,
    symbolWords,
    alphaWords,
    requiredWords,
    median: histogramMedian(lenHist, count),
  };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** statistics.median over integer lengths given as a histogram (counting, so no sort); 0.0 if empty. */
function histogramMedian(hist: number[], count: number): number {
  if (count === 0) return 0;
  const nth = (k: number): number => {
    let seen = 0;
    for (let len = 0; len < hist.length; len++) {
      seen += hist[len] ?? 0;
      if (seen > k) return len;
    }
    return 0;
  };
  const mid = count >> 1;
  return count % 2 === 1 ? nth(mid) : (nth(mid - 1) + nth(mid)) / 2;
}

/** `text.split("\n")` line statistics. */
function lineStats(text: string, nonWsChars: number) {
  const lines = text.split('\n');
  let bullets = 0;
  let ellipsis = 0;
  const counts = new Map<string, number>();
  for (const line of lines) {
    const first = line.charCodeAt(0);
    if (first === 0x2a || first === 0x2d) bullets++;
    if (line.charCodeAt(line.length - 1) === 0x2026) ellipsis++;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  let dupLines = 0;
  let dupChars = 0;
  for (const [line, c] of counts) {
    if (c > 1) {
      dupLines += c;
      dupChars += cpLen(line) * c;
    }
  }
  const l = Math.max(lines.length, 1);
  return {
    bullet: bullets / l,
    ellipsis: ellipsis / l,
    duplicateLines: dupLines / l,
    // Divided by the non-whitespace character count, not the line characters [Dolma quirk].
    duplicateLineChars: dupChars / Math.max(nonWsChars, 1),
  };
}

function cpLen(s: string): number {
  let n = s.length;
  for (let i = 1; i < s.length; i++) if (s.charCodeAt(i) >= 0xdc00 && s.charCodeAt(i) <= 0xdfff && isHigh(s.charCodeAt(i - 1))) n--;
  return n;
}

/** The spans of gopher_v1 for one text, in `GopherAttributes.as_spans()` order. */
export function gopherSpans(text: string): TagSpan[] {
  const end = text.length;
  const spans: TagSpan[] = [];
  const add = (type: string, score: number) => spans.push({ start: 0, end, type, score });
  const characterCount = cpLen(text);
  if (characterCount === 0) {
    // Dolma returns early: every scalar 0 and no n-gram attribute (10 spans).
    for (const t of SCALARS) add(t, 0);
    return spans;
  }
  const w = wordStats(text);
  const count = w.ids.length;
  const grams = ngramStats(w.ids, w.lens, 10);
  const denom = Math.max(w.chars, 1);
  for (const g of grams) if (g.n <= 4) add(`fraction_of_characters_in_most_common_${g.n}grams`, g.mostCommonChars / denom);
  for (const g of grams) if (g.n >= 5) add(`fraction_of_characters_in_duplicate_${g.n}grams`, g.duplicateChars / Math.max(g.totalChars, 1));
  const lines = lineStats(text, w.chars);
  const values = [
    characterCount,
    count,
    w.median,
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
  create: () => ({ tag: (doc) => gopherSpans(doc.text) }),
};
