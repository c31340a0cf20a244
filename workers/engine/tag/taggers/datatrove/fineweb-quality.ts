// fineweb_quality: DataTrove's FineWebQualityFilter (datatrove-spec §6), HEAD or FineWeb-era (v0.2.0) semantics.
import { z } from 'zod';
import { endsWithTerminalPunctuation } from '../../../text/charsets.js';
import { cpLength } from '../../../text/python.js';
import type { TaggerSpec } from '../../types.js';
import { viewOf } from '../../view.js';
import { c4Quality, c4QualityOptions } from './c4-quality.js';
import { filterOutputs, filterSpans, languageOption, profileOption, pyCount, ratio, wordsFor, type RuleOutcome } from './common.js';
import { isBlankText } from './lines.js';
import { findDuplicates } from './ngrams.js';

export const fineWebQualityOptions = z
  .object({
    line_punct_thr: z.number().default(0.12).describe('Min share of lines ending with a stop character'),
    line_punct_exclude_zero: z.boolean().default(false).describe('Do not drop documents where no line ends with a stop character'),
    stop_chars: z
      .array(z.string().min(1))
      .nullable()
      .default(null)
      .describe('Line-final strings that count as punctuation; null = TERMINAL_PUNCTUATION (HEAD) or . \' " ! ? (fineweb-2024)'),
    short_line_thr: z.number().default(0.67).describe('Max share of short lines'),
    short_line_length: z.number().int().default(30).describe('A line of at most this many code points is short'),
    char_duplicates_ratio: z.number().default(0.01).describe('Max code points in duplicated lines / code points outside newlines'),
    new_line_ratio: z.number().default(0.3).describe('Max newlines / words'),
    after_c4: z
      .boolean()
      .default(false)
      .describe(
        "Judge the text C4QualityFilter(filter_no_terminal_punct=False) leaves, as FineWeb's pipeline does (C4 rewrites the text first); false judges the text as given",
      ),
    language: languageOption,
    profile: profileOption,
  })
  .strict();
export type FineWebQualityOptions = z.output<typeof fineWebQualityOptions>;

const V020_STOP_CHARS = ['.', "'", '"', '!', '?'];

function endsWithAny(line: string, stops: readonly string[] | null): boolean {
  return stops === null ? endsWithTerminalPunctuation(line) : stops.some((s) => line.endsWith(s));
}

/**
 * Rule values in upstream order. HEAD: ratios over non-empty lines, strict comparisons, an `empty` rule. fineweb-2024:
 * punctuation and short-line ratios over all `split("\n")` lines with `<=`/`>=`, duplicates with `>=`, no `empty`.
 */
export function fineWebQualityRules(text: string, o: FineWebQualityOptions, wordCount?: number): RuleOutcome[] {
  const head = o.profile === 'head';
  const all = text.split('\n');
  const nonEmpty = all.filter((l) => !isBlankText(l));
  const lines = head ? nonEmpty : all;
  const stops = o.stop_chars ?? (head ? null : V020_STOP_CHARS);
  const out: RuleOutcome[] = [];
  if (head) out.push({ rule: 'empty', value: nonEmpty.length === 0 ? 1 : 0, fail: nonEmpty.length === 0 });

  const punct = ratio(lines.filter((l) => endsWithAny(l, stops)).length, lines.length);
  const punctFail = punct !== undefined && (head ? punct < o.line_punct_thr : punct <= o.line_punct_thr) && !(punct === 0 && o.line_punct_exclude_zero);
  out.push({ rule: 'line_punct_ratio', value: punct, fail: punctFail });

  const short = ratio(lines.filter((l) => cpLength(l) <= o.short_line_length).length, lines.length);
  out.push({ rule: 'short_line_ratio', value: short, fail: short !== undefined && (head ? short > o.short_line_thr : short >= o.short_line_thr) });

  const dup = ratio(findDuplicates(nonEmpty).chars, cpLength(text.replaceAll('\n', '')));
  out.push({ rule: 'char_dup_ratio', value: dup, fail: dup !== undefined && (head ? dup > o.char_duplicates_ratio : dup >= o.char_duplicates_ratio) });

  const list = nonEmpty.length === 0 ? undefined : ratio(pyCount(text, '\n'), wordCount ?? wordsFor(text, o.language, o.profile).length);
  out.push({ rule: 'list_ratio', value: list, fail: list !== undefined && list > o.new_line_ratio });
  return out;
}

const RULES = [
  { rule: 'empty', measures: '1 when no line has non-whitespace text (HEAD only)', range: '0 | 1' },
  { rule: 'line_punct_ratio', measures: 'Lines ending with a stop character / lines', range: '[0, 1]' },
  { rule: 'short_line_ratio', measures: 'Lines of at most short_line_length code points / lines', range: '[0, 1]' },
  { rule: 'char_dup_ratio', measures: 'Code points in duplicated non-empty lines / code points of text without newlines', range: '[0, 1]' },
  { rule: 'list_ratio', measures: 'count("\\n") / words', range: '≥ 0' },
];

export const fineWebQuality: TaggerSpec<FineWebQualityOptions> = {
  name: 'fineweb_quality',
  description: "DataTrove FineWebQualityFilter: FineWeb's line punctuation, short line and duplicated line rules, plus list ratio",
  outputs: filterOutputs(RULES),
  options: fineWebQualityOptions,
  create(options) {
    const c4 = c4QualityOptions.parse({ filter_no_terminal_punct: false, language: options.language, profile: options.profile });
    // The C4 pass is the one c4_quality computed for this document when it runs in the same pass with these options.
    const key = `c4_quality:${JSON.stringify(c4)}`;
    const rules = (text: string): RuleOutcome[] => {
      if (!options.after_c4) return fineWebQualityRules(text, options);
      const r = viewOf(text).get(key, (t) => c4Quality(t, c4));
      return fineWebQualityRules(r.text, options, r.words);
    };
    return { tag: (doc) => filterSpans(doc.text.length, rules(doc.text)) };
  },
};
