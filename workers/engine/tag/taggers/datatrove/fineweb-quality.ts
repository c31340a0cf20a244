// fineweb_quality: DataTrove's FineWebQualityFilter (datatrove-spec §6), HEAD or FineWeb-era (v0.2.0) semantics.
import { z } from 'zod';
import { TERMINAL_PUNCTUATION_CODEPOINTS } from '../../../text/charsets.js';
import { duplicatesInJs, RangeList } from '../../../text/duplicates.js';
import { cpLength, cpLengthOf } from '../../../text/python.js';
import type { TaggerSpec } from '../../types.js';
import { viewOf } from '../../view.js';
import { c4Quality, c4QualityOptions } from './c4-quality.js';
import { filterOutputs, filterSpans, languageOption, profileOption, ratio, wordsFor, type RuleOutcome } from './common.js';
import { isPyWs } from './lines.js';
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import { primeDataTrove } from './priming.js';

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

/** TERMINAL_PUNCTUATION by BMP unit; astral marks apart. */
const TERMINAL_BMP = new Uint8Array(0x10000);
const TERMINAL_ASTRAL = new Set<number>();
for (const cp of TERMINAL_PUNCTUATION_CODEPOINTS) {
  if (cp > 0xffff) TERMINAL_ASTRAL.add(cp);
  else TERMINAL_BMP[cp] = 1;
}

/** `line.endswith(tuple(stops))` for line = text[a, b); null stops = TERMINAL_PUNCTUATION (by its last code point). */
function endsWithAny(text: string, a: number, b: number, stops: readonly string[] | null): boolean {
  if (stops !== null) {
    for (const s of stops) if (b - a >= s.length && text.startsWith(s, b - s.length)) return true;
    return false;
  }
  if (b === a) return false;
  const last = text.charCodeAt(b - 1);
  if ((last & 0xfc00) === 0xdc00 && b - a >= 2) {
    const high = text.charCodeAt(b - 2);
    if ((high & 0xfc00) === 0xd800) return TERMINAL_ASTRAL.has(0x10000 + ((high - 0xd800) << 10) + (last - 0xdc00));
  }
  return TERMINAL_BMP[last] === 1;
}

/** `len(text[a:b]) <= max`: the unit count settles most lines (code points ≤ units ≤ 2 × code points). */
function isShort(text: string, a: number, b: number, max: number): boolean {
  if (b - a <= max) return true;
  if (b - a > 2 * max) return false;
  return cpLengthOf(text, a, b) <= max;
}

function isBlank(text: string, a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!isPyWs(text.charCodeAt(i))) return false;
  return true;
}

const nonEmptyLines = new RangeList();
const HIGH_SURROGATE = /[\ud800-\udbff]/;

/**
 * Rule values in upstream order. HEAD: ratios over non-empty lines, strict comparisons, an `empty` rule. fineweb-2024:
 * punctuation and short-line ratios over all `split("\n")` lines with `<=`/`>=`, duplicates with `>=`, no `empty`.
 * The lines are read in place, one pass, no string per line.
 */
export function fineWebQualityRules(text: string, o: FineWebQualityOptions, wordCount?: number, js = false): RuleOutcome[] {
  const head = o.profile === 'head';
  const addon = js ? null : nativeAddon();
  const c = addon === null ? linesJs(text, o) : linesNative(addon, text, o);
  const [all, nonEmpty, punctLines, shortLines, dupChars, chars] = c;
  const lines = head ? nonEmpty : all;
  const newlines = all - 1;
  const out: RuleOutcome[] = [];
  if (head) out.push({ rule: 'empty', value: nonEmpty === 0 ? 1 : 0, fail: nonEmpty === 0 });

  const punct = ratio(punctLines, lines);
  const punctFail = punct !== undefined && (head ? punct < o.line_punct_thr : punct <= o.line_punct_thr) && !(punct === 0 && o.line_punct_exclude_zero);
  out.push({ rule: 'line_punct_ratio', value: punct, fail: punctFail });

  const short = ratio(shortLines, lines);
  out.push({ rule: 'short_line_ratio', value: short, fail: short !== undefined && (head ? short > o.short_line_thr : short >= o.short_line_thr) });

  const dup = ratio(dupChars, chars);
  out.push({ rule: 'char_dup_ratio', value: dup, fail: dup !== undefined && (head ? dup > o.char_duplicates_ratio : dup >= o.char_duplicates_ratio) });

  const list = nonEmpty === 0 ? undefined : ratio(newlines, wordCount ?? wordsFor(text, o.language, o.profile).length);
  out.push({ rule: 'list_ratio', value: list, fail: list !== undefined && list > o.new_line_ratio });
  return out;
}

/** [lines, non-blank lines, lines ending with a stop, short lines, duplicated code points, code points without "\n"]. */
type LineCounts = [number, number, number, number, number, number];

/** TERMINAL_PUNCTUATION's astral marks as [cp, cp] pairs, ascending, for the C. */
const TERMINAL_ASTRAL_PAIRS = Int32Array.from([...TERMINAL_ASTRAL].sort((x, y) => x - y).flatMap((cp) => [cp, cp]));
const stopArrays = new WeakMap<readonly string[], { chars: Uint16Array; at: Int32Array }>();
const counts = new Float64Array(6);

/** The line counts in C (native/fineweb.c): [lines, non-blank, ending with a stop, short, duplicated code points, code points]. */
function linesNative(addon: NativeAddon, text: string, o: FineWebQualityOptions): LineCounts {
  const head = o.profile === 'head';
  const stops = o.stop_chars ?? (head ? null : V020_STOP_CHARS);
  let arrays = stops === null ? undefined : stopArrays.get(stops);
  if (stops !== null && arrays === undefined) {
    const at = new Int32Array(stops.length + 1);
    stops.forEach((s, k) => (at[k + 1] = (at[k] as number) + s.length));
    const joined = stops.join('');
    const chars = new Uint16Array(joined.length);
    for (let i = 0; i < joined.length; i++) chars[i] = joined.charCodeAt(i);
    stopArrays.set(stops, (arrays = { chars, at }));
  }
  addon.finewebLines(text, head, TERMINAL_BMP, TERMINAL_ASTRAL_PAIRS, arrays?.chars ?? null, arrays?.at ?? NO_STOPS, o.short_line_length, counts);
  return Array.from(counts) as LineCounts;
}
const NO_STOPS = Int32Array.of(0);

/** The line counts in JavaScript: the reference, and the path without the addon. */
function linesJs(text: string, o: FineWebQualityOptions): LineCounts {
  const head = o.profile === 'head';
  const stops = o.stop_chars ?? (head ? null : V020_STOP_CHARS);
  const nonBlank = nonEmptyLines.reset();
  let all = 0;
  let nonEmpty = 0;
  let punctLines = 0;
  let shortLines = 0;
  for (let a = 0; ; ) {
    let b = text.indexOf('\n', a);
    if (b === -1) b = text.length;
    all++;
    const blank = isBlank(text, a, b);
    if (!blank) {
      nonEmpty++;
      nonBlank.push(a, b);
    }
    if (!head || !blank) {
      if (endsWithAny(text, a, b, stops)) punctLines++;
      if (isShort(text, a, b, o.short_line_length)) shortLines++;
    }
    if (b === text.length) break;
    a = b + 1;
  }
  // len(text.replace("\n", "")): without a high surrogate no pair can form across a removed "\n".
  const chars = HIGH_SURROGATE.test(text) ? cpLength(text.replaceAll('\n', '')) : text.length - (all - 1);
  return [all, nonEmpty, punctLines, shortLines, duplicatesInJs(text, nonBlank).chars, chars];
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
  create(options, ctx) {
    const c4 = c4QualityOptions.parse({ filter_no_terminal_punct: false, language: options.language, profile: options.profile });
    // The C4 pass is the one c4_quality computed for this document when it runs in the same pass with these options.
    const key = `c4_quality:${JSON.stringify(c4)}`;
    const rules = (text: string): RuleOutcome[] => {
      if (!options.after_c4) return fineWebQualityRules(text, options);
      const r = viewOf(text).get(key, (t) => c4Quality(t, c4));
      return fineWebQualityRules(r.text, options, r.words);
    };
    primeDataTrove(`fineweb_quality:${JSON.stringify(options)}`, rules, ctx);
    return { tag: (doc) => filterSpans(doc.text.length, rules(doc.text)) };
  },
};
