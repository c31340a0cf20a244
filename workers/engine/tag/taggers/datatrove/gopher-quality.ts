// gopher_quality: DataTrove's GopherQualityFilter (datatrove-spec §4.2) as one attribute per rule.
import { z } from 'zod';
import { isPySpace } from '../../../text/spacy/tokenizer.js';
import type { TaggerSpec } from '../../types.js';
import { above, below, filterOutputs, filterSpans, languageOption, profileOption, pyCount, ratio, threshold, type RuleOutcome } from './common.js';
import { documentLines } from './lines.js';
import { ALPHA_BMP_RANGES } from '../../../text/bmp-ranges.js';
import { hasAlpha, isSymbolWord, PUNCT_BMP } from './word-classes.js';
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import { wordIdsFor, type WordIds } from './word-ids.js';
import { primeDataTrove } from './priming.js';

export const GOPHER_STOP_WORDS = ['the', 'be', 'to', 'of', 'and', 'that', 'have', 'with'];

export const gopherQualityOptions = z
  .object({
    min_doc_words: threshold(50, 'Min words that are not all punctuation'),
    max_doc_words: threshold(100000, 'Max words that are not all punctuation'),
    min_avg_word_length: threshold(3, 'Min mean length (code points) of those words'),
    max_avg_word_length: threshold(10, 'Max mean length of those words'),
    max_symbol_word_ratio: threshold(0.1, 'Max count("#") / words, and max (count("...") + count("…")) / words'),
    max_bullet_lines_ratio: threshold(0.9, 'Max share of lines starting with • or - (after lstrip)'),
    max_ellipsis_lines_ratio: threshold(0.3, 'Max share of lines ending with ... or … (after rstrip)'),
    max_non_alpha_words_ratio: threshold(0.8, 'MIN share of words with an alphabetic character (misnamed upstream, issue #202)'),
    min_stop_words: threshold(2, 'Min stop words: distinct ones at HEAD, occurrences in fineweb-2024'),
    stop_words: z.array(z.string()).nullable().default(null).describe('Stop words (case-sensitive); null = the Gopher list'),
    language: languageOption,
    profile: profileOption,
  })
  .strict();
export type GopherQualityOptions = z.output<typeof gopherQualityOptions>;

const PY_SPACE = isPySpace;
// Small at first, so that the priming texts grow it: a first growth during the run would throw the rules' compiled code away.
let idCounts = new Int32Array(16);

/** Occurrences per word id (a scratch array reused from document to document). */
function occurrences(w: WordIds): Int32Array {
  if (idCounts.length < w.vocab) idCounts = new Int32Array(2 * w.vocab);
  idCounts.fill(0, 0, w.vocab);
  for (let i = 0; i < w.count; i++) idCounts[w.ids[i] as number]!++;
  return idCounts;
}

/** A stop-word list by length: a word is compared only with the stop words as long as it (case-sensitive, unit by unit). */
class StopWords {
  readonly #byLength: string[][] = [];
  readonly distinct: string[];

  constructor(words: readonly string[]) {
    this.distinct = [...new Set(words)];
    for (const s of this.distinct) (this.#byLength[s.length] ??= []).push(s);
  }

  has(chars: Uint16Array, a: number, b: number): boolean {
    const list = this.#byLength[b - a];
    if (list === undefined) return false;
    next: for (const s of list) {
      for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== chars[a + i]) continue next;
      return true;
    }
    return false;
  }
}

/** What one tagger's rules need besides the text, made once per options object: the stop words, and the C tables. */
export interface GopherQualityPrepared {
  stops: StopWords;
  native: { addon: NativeAddon; tables: object } | null;
}

const preparedOf = new WeakMap<GopherQualityOptions, GopherQualityPrepared>();

export function prepareGopherQuality(o: GopherQualityOptions): GopherQualityPrepared {
  let p = preparedOf.get(o);
  if (p !== undefined) return p;
  const stops = new StopWords(o.stop_words ?? GOPHER_STOP_WORDS);
  const addon = nativeAddon();
  let native: GopherQualityPrepared['native'] = null;
  if (addon !== null) {
    const at = new Int32Array(stops.distinct.length + 1);
    stops.distinct.forEach((s, k) => (at[k + 1] = (at[k] as number) + s.length));
    const joined = stops.distinct.join('');
    const chars = new Uint16Array(joined.length);
    for (let i = 0; i < joined.length; i++) chars[i] = joined.charCodeAt(i);
    native = { addon, tables: addon.gopherQualityTables(PUNCT_BMP, ALPHA_BMP_RANGES, chars, at) };
  }
  preparedOf.set(o, (p = { stops, native }));
  return p;
}

/**
 * The counts the rules are made of (see native/gopher-quality.c): [non-symbol words, their code points, alphabetic
 * words, distinct stop words, stop word occurrences, bullet lines, end-ellipsis lines, "#", "..." + "…"].
 */
const counts = new Float64Array(9);
let astral = new Int32Array(64);

function countsNative(n: NonNullable<GopherQualityPrepared['native']>, text: string, w: WordIds, lines: Int32Array): void {
  if (astral.length < 2 * w.vocab) astral = new Int32Array(4 * w.vocab);
  const left = n.addon.gopherQuality(n.tables, text, lines, w.chars, w.starts, w.ids, w.first, w.cpLens, w.count, w.vocab, counts, astral);
  // Words with a surrogate pair: the JavaScript's tests, which reach beyond the BMP.
  for (let k = 0; k < 2 * left; k += 2) wordClasses(w, astral[k] as number, astral[k + 1] as number);
}

/** Adds word `id` (occurring k times) to the symbol and alphabetic counts. */
function wordClasses(w: WordIds, id: number, k: number): void {
  const at = w.first[id] as number;
  const a = w.starts[at] as number;
  const b = w.starts[at + 1] as number;
  if (!isSymbolWord(w.chars, a, b)) {
    counts[0]! += k;
    counts[1]! += k * (w.cpLens[id] as number);
  }
  if (hasAlpha(w.chars, a, b)) counts[2]! += k;
}

function countsJs(stops: StopWords, text: string, w: WordIds, lines: Int32Array): void {
  counts.fill(0);
  // Each distinct word is judged once, from its first occurrence, and counts as many times as it occurs.
  const occ = occurrences(w);
  for (let id = 0; id < w.vocab; id++) {
    const k = occ[id] as number;
    wordClasses(w, id, k);
    const at = w.first[id] as number;
    if (stops.has(w.chars, w.starts[at] as number, w.starts[at + 1] as number)) {
      counts[3]!++;
      counts[4]! += k;
    }
  }
  for (let k = 0; k < lines.length; k += 3) {
    // `l.lstrip().startswith(("•", "-"))` and `l.rstrip().endswith(("...", "…"))`, read in place.
    const end = lines[k + 1] as number;
    let a = lines[k] as number;
    while (a < end && PY_SPACE(text.charCodeAt(a))) a++;
    const first = a < end ? text.charCodeAt(a) : -1;
    if (first === 0x2022 || first === 0x2d) counts[5]!++;
    let b = end;
    while (b > a && PY_SPACE(text.charCodeAt(b - 1))) b--;
    if (b - a >= 1 && text.charCodeAt(b - 1) === 0x2026) counts[6]!++;
    else if (b - a >= 3 && text.charCodeAt(b - 1) === 0x2e && text.charCodeAt(b - 2) === 0x2e && text.charCodeAt(b - 3) === 0x2e) counts[6]!++;
  }
  counts[7] = pyCount(text, '#');
  counts[8] = pyCount(text, '...') + pyCount(text, '…');
}

/** Fills `counts` for `text`: in C when the addon is loaded (unless `js`), else in JavaScript. [words, lines]. */
function count(text: string, o: GopherQualityOptions, p: GopherQualityPrepared, js: boolean): [number, number] {
  const w = wordIdsFor(text, o.language, o.profile);
  const lines = documentLines(text);
  if (p.native !== null && !js) countsNative(p.native, text, w, lines);
  else countsJs(p.stops, text, w, lines);
  return [w.count, lines.length / 3];
}

/** A copy of the counts of `text`, by the C path or (js) the JavaScript one: tests compare the two. */
export function gopherQualityCounts(text: string, o: GopherQualityOptions, js: boolean): Float64Array {
  count(text, o, prepareGopherQuality(o), js);
  return counts.slice();
}

/** Rule values in upstream order; ratios over zero words or zero lines (a ZeroDivisionError upstream) are left out. */
export function gopherQualityRules(text: string, o: GopherQualityOptions, p = prepareGopherQuality(o)): RuleOutcome[] {
  const [n, lines] = count(text, o, p, false);
  const nonSymbol = counts[0] as number;
  // numpy.mean of an empty list is NaN, which passes both comparisons.
  const avg = ratio(counts[1] as number, nonSymbol);
  const bullets = counts[5] as number;
  const endEllipsis = counts[6] as number;
  // HEAD counts distinct stop words (f9bbe093); v0.2.0 counted occurrences.
  const stopCount = (o.profile === 'head' ? counts[3] : counts[4]) as number;
  const hashRatio = ratio(counts[7] as number, n);
  const ellipsisRatio = ratio(counts[8] as number, n);
  const alphaRatio = ratio(counts[2] as number, n);
  return [
    { rule: 'gopher_short_doc', value: nonSymbol, fail: below(nonSymbol, o.min_doc_words) },
    { rule: 'gopher_long_doc', value: nonSymbol, fail: above(nonSymbol, o.max_doc_words) },
    { rule: 'gopher_below_avg_threshold', value: avg, fail: below(avg, o.min_avg_word_length) },
    { rule: 'gopher_above_avg_threshold', value: avg, fail: above(avg, o.max_avg_word_length) },
    { rule: 'gopher_too_many_hashes', value: hashRatio, fail: above(hashRatio, o.max_symbol_word_ratio) },
    { rule: 'gopher_too_many_ellipsis', value: ellipsisRatio, fail: above(ellipsisRatio, o.max_symbol_word_ratio) },
    { rule: 'gopher_too_many_bullets', value: ratio(bullets, lines), fail: above(ratio(bullets, lines), o.max_bullet_lines_ratio) },
    {
      rule: 'gopher_too_many_end_ellipsis',
      value: ratio(endEllipsis, lines),
      fail: above(ratio(endEllipsis, lines), o.max_ellipsis_lines_ratio),
    },
    { rule: 'gopher_below_alpha_threshold', value: alphaRatio, fail: below(alphaRatio, o.max_non_alpha_words_ratio) },
    { rule: 'gopher_enough_stop_words', value: stopCount, fail: below(stopCount, o.min_stop_words) },
  ];
}

const RULES = [
  { rule: 'gopher_short_doc', measures: 'Words that are not all DataTrove punctuation', range: '≥ 0' },
  { rule: 'gopher_long_doc', measures: 'Words that are not all DataTrove punctuation', range: '≥ 0' },
  { rule: 'gopher_below_avg_threshold', measures: 'Mean code-point length of those words', range: '≥ 0' },
  { rule: 'gopher_above_avg_threshold', measures: 'Mean code-point length of those words', range: '≥ 0' },
  { rule: 'gopher_too_many_hashes', measures: 'count("#") / words', range: '≥ 0' },
  { rule: 'gopher_too_many_ellipsis', measures: '(count("...") + count("…")) / words', range: '≥ 0' },
  { rule: 'gopher_too_many_bullets', measures: 'Lines starting with • or - / lines (splitlines)', range: '[0, 1]' },
  { rule: 'gopher_too_many_end_ellipsis', measures: 'Lines ending with ... or … / lines', range: '[0, 1]' },
  { rule: 'gopher_below_alpha_threshold', measures: 'Words with an alphabetic character / words', range: '[0, 1]' },
  { rule: 'gopher_enough_stop_words', measures: 'Stop words found (distinct at HEAD, occurrences in fineweb-2024)', range: '≥ 0' },
];

export const gopherQuality: TaggerSpec<GopherQualityOptions> = {
  name: 'gopher_quality',
  description: 'DataTrove GopherQualityFilter: word counts and lengths, symbol ratios, bullets, alphabetic words, stop words',
  outputs: filterOutputs(RULES),
  options: gopherQualityOptions,
  create(options, ctx) {
    // Prepared here: looked up inside the rules, a second tagger's new options object sent V8's compiled code back.
    const p = prepareGopherQuality(options);
    primeDataTrove(`gopher_quality:${JSON.stringify(options)}`, (t) => gopherQualityRules(t, options, p), ctx);
    return { tag: (doc) => filterSpans(doc.text.length, gopherQualityRules(doc.text, options, p)) };
  },
};
