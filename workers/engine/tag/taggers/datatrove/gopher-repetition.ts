// gopher_repetition: DataTrove's GopherRepetitionFilter (datatrove-spec §4.1) as one attribute per rule.
import { z } from 'zod';
import { duplicatesOf, RangeList } from '../../../text/duplicates.js';
import { cpLength } from '../../../text/python.js';
import type { TaggerSpec } from '../../types.js';
import { above, filterOutputs, filterSpans, languageOption, profileOption, ratio, threshold, typeNames, type RuleOutcome } from './common.js';
import { allDuplicateChars, primeDuplicateChars } from './dup-ngrams.js';
import { documentLines, stripRange } from './lines.js';
import { topNgramChars } from './ngrams.js';
import { wordIdsFor } from './word-ids.js';
import { nativeAddon } from '../../../native-addon.js';
import { primeDataTrove } from './priming.js';

const nGramList = (def: Array<[number, number]>, what: string) =>
  z.array(z.tuple([z.number().int().positive(), z.number()])).default(def).describe(what);

export const gopherRepetitionOptions = z
  .object({
    dup_line_frac: threshold(0.3, 'Max share of duplicated lines'),
    dup_para_frac: threshold(0.3, 'Max share of duplicated paragraphs (split on 2+ newlines)'),
    dup_line_char_frac: threshold(0.2, 'Max characters in duplicated lines / len(text)'),
    dup_para_char_frac: threshold(0.2, 'Max characters in duplicated paragraphs / len(text)'),
    top_n_grams: nGramList(
      [[2, 0.2], [3, 0.18], [4, 0.16]],
      '[n, max] pairs: len(most common n-gram) × its count / len(text) must not exceed max',
    ),
    dup_n_grams: nGramList(
      [[5, 0.15], [6, 0.14], [7, 0.13], [8, 0.12], [9, 0.11], [10, 0.1]],
      '[n, max] pairs: characters in repeated n-grams / len(text) must not exceed max',
    ),
    language: languageOption,
    profile: profileOption,
  })
  .strict();
export type GopherRepetitionOptions = z.output<typeof gopherRepetitionOptions>;

// The n lists of an options object, made once: a fresh array per document met the n-gram loops with a new map each
// time and kept them deoptimizing.
const nLists = new WeakMap<GopherRepetitionOptions, { top: number[]; dup: number[] }>();
function nsOf(o: GopherRepetitionOptions): { top: number[]; dup: number[] } {
  let v = nLists.get(o);
  if (v === undefined) nLists.set(o, (v = { top: o.top_n_grams.map(([n]) => n), dup: o.dup_n_grams.map(([n]) => n) }));
  return v;
}

export interface Duplicates {
  /** Pieces, duplicated pieces, and their code points. */
  count: number;
  elements: number;
  chars: number;
}

const pieces = new RangeList();
/** The n-gram rules' names, made once per n (see typeNames). */
const topName = typeNames('top_', '_gram');
const dupName = typeNames('duplicated_', '_n_grams');

/**
 * `find_duplicates(re.split(r"\n{minRun,}", text[a:b]))` with the number of pieces, the pieces read in place: a run
 * of "\n" shorter than minRun stays inside its piece; leading and trailing runs cut off empty pieces, as split does.
 */
function duplicatePieces(text: string, a: number, b: number, minRun: number): Duplicates {
  const list = pieces.reset();
  let s = a;
  let i = a;
  for (;;) {
    let j = text.indexOf('\n', i);
    if (j === -1 || j > b) j = b;
    let r = j;
    while (r < b && text.charCodeAt(r) === 0x0a) r++;
    if (j < b && r - j < minRun) {
      i = r;
      continue;
    }
    list.push(s, j);
    if (j === b) return counted(text, list);
    s = i = r;
  }
}

/** `find_duplicates(text.splitlines())` with the number of lines. */
function duplicateLines(text: string): Duplicates {
  const list = pieces.reset();
  const o = documentLines(text);
  for (let k = 0; k < o.length; k += 3) list.push(o[k] as number, o[k + 1] as number);
  return counted(text, list);
}

function counted(text: string, list: RangeList): Duplicates {
  const { elements, chars } = duplicatesOf(text, list);
  return { count: list.count, elements, chars };
}

const found = new Float64Array(6);

/**
 * The paragraphs' and the lines' duplicates: in C (native/ranges.c) when the addon is loaded (unless `js`), else in
 * JavaScript. v0.2.0 split lines with splitlines(); HEAD uses re.split("\n+") (a8d21e2b).
 */
export function pieceDuplicates(text: string, o: GopherRepetitionOptions, js = false): [Duplicates, Duplicates] {
  const [a, b] = stripRange(text, 0, text.length);
  const addon = js ? null : nativeAddon();
  if (addon === null) return [duplicatePieces(text, a, b, 2), o.profile === 'head' ? duplicatePieces(text, 0, text.length, 1) : duplicateLines(text)];
  addon.repetitionDuplicates(text, a, b, o.profile === 'head' ? null : documentLines(text), found);
  return [
    { count: found[0] as number, elements: found[1] as number, chars: found[2] as number },
    { count: found[3] as number, elements: found[4] as number, chars: found[5] as number },
  ];
}

/**
 * Rule values in upstream order. An empty text makes upstream raise ZeroDivisionError; here the ratios over
 * len(text) are left out and the document is kept.
 */
export function gopherRepetitionRules(text: string, o: GopherRepetitionOptions): RuleOutcome[] {
  const len = cpLength(text);
  const [para, line] = pieceDuplicates(text, o);
  const out: RuleOutcome[] = [];
  const push = (rule: string, value: number | undefined, t: number | null) => out.push({ rule, value, fail: above(value, t) });
  push('dup_para_frac', ratio(para.elements, para.count), o.dup_para_frac);
  push('dup_para_char_frac', ratio(para.chars, len), o.dup_para_char_frac);
  push('dup_line_frac', ratio(line.elements, line.count), o.dup_line_frac);
  push('dup_line_char_frac', ratio(line.chars, len), o.dup_line_char_frac);

  const words = wordIdsFor(text, o.language, o.profile);
  const ns = nsOf(o);
  const tops = topNgramChars(words, ns.top);
  for (const [n, frac] of o.top_n_grams) {
    const chars = tops.get(n);
    const value = chars === undefined ? undefined : ratio(chars, len);
    // Upstream checks `> n_frac` with no truthiness guard; an n with no n-grams is skipped.
    out.push({ rule: topName(n), value, fail: value !== undefined && value > frac });
  }
  const dups = allDuplicateChars(words, ns.dup);
  for (const [k, [n, frac]] of o.dup_n_grams.entries()) {
    const value = ratio(dups[k] as number, len);
    out.push({ rule: dupName(n), value, fail: value !== undefined && value > frac });
  }
  return out;
}

const RULES = [
  { rule: 'dup_para_frac', measures: 'Duplicated paragraphs / paragraphs (text stripped, split on \\n{2,})', range: '[0, 1]' },
  { rule: 'dup_para_char_frac', measures: 'Code points in duplicated paragraphs / len(text)', range: '[0, 1]' },
  { rule: 'dup_line_frac', measures: 'Duplicated lines / lines (split on \\n+)', range: '[0, 1]' },
  { rule: 'dup_line_char_frac', measures: 'Code points in duplicated lines / len(text)', range: '[0, 1]' },
  { rule: 'top_{n}_gram', measures: 'len(most common word n-gram) × its count / len(text), per top_n_grams entry', range: '≥ 0' },
  { rule: 'duplicated_{n}_n_grams', measures: 'Code points in repeated word n-grams / len(text), per dup_n_grams entry', range: '[0, 1]' },
];

export const gopherRepetition: TaggerSpec<GopherRepetitionOptions> = {
  name: 'gopher_repetition',
  description: "DataTrove GopherRepetitionFilter: duplicated lines/paragraphs and repeated n-grams, one attribute per rule",
  outputs: filterOutputs(RULES),
  options: gopherRepetitionOptions,
  create(options, ctx) {
    primeDuplicateChars();
    primeDataTrove(`gopher_repetition:${JSON.stringify(options)}`, (t) => gopherRepetitionRules(t, options), ctx);
    return { tag: (doc) => filterSpans(doc.text.length, gopherRepetitionRules(doc.text, options)) };
  },
};
