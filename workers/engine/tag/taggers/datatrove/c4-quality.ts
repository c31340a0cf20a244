// c4_quality: DataTrove's C4QualityFilter (datatrove-spec §5.1), a filter that also rewrites the text, as spans.
import { z } from 'zod';
import { PUNCT_CHARS, sentenceCountOfTokens, sentenceSpansOfTokens } from '../../../text/sentences.js';
import { PUNCT_P_BMP_RANGES } from '../../../text/bmp-ranges.js';
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import { ND_RANGES } from '../dolma/nd-ranges.js';
import { isPySpace } from '../../../text/spacy/tokenizer.js';
import { tokenizerFor, type TokenOffsets } from '../../../text/words.js';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { viewOf } from '../../view.js';
import { filterOutputs, filterSpans, languageOption, profileOption, type RuleOutcome } from './common.js';
import { lineEdits, lineEditsOfRows, type LineUnit } from './line-edits.js';
import { documentLines, stripRange, stripText, wordStats } from './lines.js';
import { sentTokenizeNltk } from '../../../text/nltk/words.js';
import { primeDataTrove } from './priming.js';

export const c4QualityOptions = z
  .object({
    split_paragraph: z.boolean().default(true).describe('Judge lines (splitlines); false judges spaCy sentences and joins kept ones with " "'),
    remove_citations: z.boolean().default(true).describe('Delete [1], [edit], [citation needed] from kept lines'),
    filter_no_terminal_punct: z
      .boolean()
      .default(true)
      .describe('Drop lines not ending in . ? ! " \' (or ending in ...); FineWeb runs C4QualityFilter(filter_no_terminal_punct=False)'),
    min_num_sentences: z.number().int().default(5).describe('Drop documents with fewer sentences in kept lines; -1 disables'),
    min_words_per_line: z.number().int().default(3).describe('Drop lines with fewer whitespace-separated words; -1 disables'),
    max_word_length: z.number().int().default(1000).describe('Drop lines with a longer word (code points); -1 disables'),
    filter_lorem_ipsum: z.boolean().default(true).describe('Drop documents with a kept line containing "lorem ipsum"'),
    filter_javascript: z.boolean().default(true).describe('Drop lines mentioning "javascript"'),
    filter_curly_bracket: z.boolean().default(true).describe('Drop documents with a "{" in a line that reaches the check'),
    filter_policy: z.boolean().default(true).describe('Drop lines with terms of use / privacy policy / cookie phrases'),
    language: languageOption,
    profile: profileOption,
  })
  .strict();
export type C4QualityOptions = z.output<typeof c4QualityOptions>;

const CITATION = /\[\p{Nd}*\]|\[edit\]|\[citation needed\]/gu;
const END_PUNCTUATION = ['.', '?', '!', '"', "'"];
export const POLICY = ['terms of use', 'privacy policy', 'cookie policy', 'uses cookies', 'use of cookies', 'use cookies'];

export interface C4Result {
  outcomes: RuleOutcome[];
  /** Spans that turn the text into DataTrove's rewritten text (see c4-edits.ts). */
  edits: TagSpan[];
  /** DataTrove's `doc.text` after the filter (meaningful when kept). */
  text: string;
  linesKept: number;
  linesRemoved: number;
  /** HEAD with split_paragraph: `len(split_into_words(text))` of the rewritten text, from the tokens already at hand. */
  words?: number;
}

/** The units C4 judges: splitlines() lines, or (split_paragraph=False) spaCy sentences stripped, empty ones dropped. */
function units(text: string, o: C4QualityOptions): LineUnit[] {
  if (o.split_paragraph) {
    const offsets = documentLines(text);
    const lines: LineUnit[] = [];
    for (let k = 0; k < offsets.length; k += 3) {
      const start = offsets[k] as number;
      const end = offsets[k + 1] as number;
      const [a, b] = stripRange(text, start, end);
      // `cuts` from the start: one shape for every unit (adding it to the lines with citations gave V8 a second).
      lines.push({ start, end, next: offsets[k + 2] as number, a, b, kept: false, cuts: undefined });
    }
    return lines;
  }
  const out: LineUnit[] = [];
  const tokens = viewOf(text).spacyTokens(o.language);
  for (const [s, e] of sentenceSpansOfTokens(text, tokens, 0, tokens.starts.length)) {
    const [a, b] = stripRange(text, s, e);
    if (a < b) out.push({ start: a, end: b, next: b, a, b, kept: false, cuts: undefined });
  }
  return out;
}

/** The spaCy tokens of a line: the document's own (shared) inside it, or the line's when citations were cut out of it. */
class LineTokens {
  private next = 0;
  constructor(
    private readonly text: string,
    private readonly tokens: TokenOffsets | null,
    private readonly language: string,
  ) {}

  /**
   * Tokens of `line` = text[a, b) stripped; `edited` when citations were cut out of it. Lines come in text order.
   * (`edited` rather than comparing `line.length`: lines are sliced, replaced or one-character strings, and a length
   * site seeing all their representations goes megamorphic.)
   */
  of(line: string, a: number, b: number, edited: boolean): { text: string; tokens: TokenOffsets; from: number; to: number } {
    if (this.tokens === null || edited) {
      const tokens = tokenizerFor(this.language).tokenize(line);
      return { text: line, tokens, from: 0, to: tokens.starts.length };
    }
    const { starts } = this.tokens;
    while (this.next < starts.length && (starts[this.next] as number) < a) this.next++;
    const from = this.next;
    while (this.next < starts.length && (starts[this.next] as number) < b) this.next++;
    return { text: this.text, tokens: this.tokens, from, to: this.next };
  }
}

function nonSpaceTokens(t: { text: string; tokens: TokenOffsets; from: number; to: number }): number {
  let n = 0;
  for (let i = t.from; i < t.to; i++) if (!isPySpace(t.text.charCodeAt(t.tokens.starts[i] as number))) n++;
  return n;
}

function hasPolicy(lower: string): boolean {
  for (const p of POLICY) if (lower.includes(p)) return true;
  return false;
}

/**
 * The non-ASCII characters whose lowercase holds ASCII: İ ("i̇") and the Kelvin sign ("k"). Every other character
 * lowers to ASCII only from ASCII (a test holds every code point to this).
 */
export const LOWERS_TO_ASCII = '\u0130\u212a';

/**
 * Whether some line of `text` may contain a phrase the enabled rules look for (lowercased). The phrases are ASCII and
 * toLowerCase maps each character on its own as far as ASCII goes (only Σ depends on its neighbours, and it lowers to
 * σ or ς), so a phrase in a lowered line comes from a run of ASCII characters matching it in any case, unless one of
 * LOWERS_TO_ASCII is in the text. A non-unicode /i regex matches ASCII letters in either case and never a non-ASCII
 * character with an ASCII one: one search of the text, with no lowered copy of it, spares lowering every line when
 * nothing is found. Every POLICY phrase holds "cookie", "policy" or is "terms of use" (tested).
 */
function phraseSearch(o: C4QualityOptions): RegExp | null {
  const words = [...(o.filter_lorem_ipsum ? ['lorem ipsum'] : []), ...(o.filter_javascript ? ['javascript'] : []), ...(o.filter_policy ? ['cookie', 'policy', 'terms of use'] : [])];
  return words.length === 0 ? null : new RegExp(`[${LOWERS_TO_ASCII}]|${words.join('|')}`, 'i');
}

/** Each options object's phrase search (options are parsed once per tagger). */
const phraseSearches = new WeakMap<C4QualityOptions, RegExp | null>();

/** C4QualityFilter.filter on one text: the document rules, the line edits and the text DataTrove would leave. */
export function c4Quality(text: string, o: C4QualityOptions): C4Result {
  if (o.split_paragraph && o.profile === 'head') {
    const addon = nativeAddon();
    const r = addon === null ? null : c4QualityNative(addon, text, o);
    if (r !== null) return r;
  }
  return c4QualityJs(text, o);
}

let tables: object | undefined;
let rows = new Int32Array(6 * 64);
let cuts = new Int32Array(1024);
let edited = new Int32Array(64);
const info = new Float64Array(8);
const optionRows = new WeakMap<C4QualityOptions, Int32Array>();

/**
 * c4Quality for HEAD's split lines in C (native/c4-quality.c), or null where the C hands the document back (İ or the
 * Kelvin sign, a token with a surrogate that the sentence rules read). Kept lines with citations cut out are counted
 * here: their tokens are the edited line's.
 */
export function c4QualityNative(addon: NativeAddon, text: string, o: C4QualityOptions): C4Result | null {
  tables ??= addon.c4QualityTables(PUNCT_P_BMP_RANGES, Uint16Array.from([...PUNCT_CHARS].filter((c) => c.length === 1), (c) => c.charCodeAt(0)), ND_RANGES);
  let options = optionRows.get(o);
  if (options === undefined) {
    const flag = (b: boolean) => (b ? 1 : 0);
    options = Int32Array.of(flag(o.remove_citations), flag(o.filter_no_terminal_punct), o.min_num_sentences, o.min_words_per_line, o.max_word_length,
      flag(o.filter_lorem_ipsum), flag(o.filter_javascript), flag(o.filter_curly_bracket), flag(o.filter_policy));
    optionRows.set(o, options);
  }
  const lines = documentLines(text);
  if (rows.length < 2 * lines.length) rows = new Int32Array(4 * lines.length);
  if (edited.length < lines.length / 3) edited = new Int32Array(lines.length);
  if (cuts.length < text.length) cuts = new Int32Array(2 * text.length);
  const { starts, ends } = viewOf(text).spacyTokens(o.language);
  const rewritten = addon.c4Quality(tables, text, lines, starts, ends, options, rows, info, cuts, edited);
  if (rewritten === null) return null;
  let numSentences = info[0] as number;
  let words = info[1] as number;
  for (let k = 0; k < (info[7] as number); k++) {
    const r = 6 * (edited[k] as number);
    const line = text.slice(rows[r + 3], rows[r + 4]).replace(CITATION, '');
    const tokens = tokenizerFor(o.language).tokenize(line);
    const to = tokens.starts.length;
    if (o.min_num_sentences !== -1) numSentences += Math.max(1, sentenceCountOfTokens(line, tokens, 0, to));
    words += nonSpaceTokens({ text: line, tokens, from: 0, to });
  }
  const lorem = info[2] === 1;
  const curly = info[3] === 1;
  const doc: RuleOutcome[] = [
    { rule: 'lorem_ipsum', value: lorem ? 1 : 0, fail: lorem },
    { rule: 'curly_bracket', value: curly ? 1 : 0, fail: curly },
  ];
  if (info[4] === 1) doc.reverse();
  const linesKept = info[5] as number;
  return {
    outcomes: [
      ...doc,
      { rule: 'too_few_sentences', value: o.min_num_sentences === -1 ? undefined : numSentences, fail: numSentences < o.min_num_sentences },
    ],
    edits: lineEditsOfRows(addon, text, rows.subarray(0, 2 * lines.length), true, true, cuts.subarray(0, 2 * (info[6] as number))),
    text: rewritten,
    linesKept,
    linesRemoved: lines.length / 3 - linesKept,
    words,
  };
}

/** c4Quality in JavaScript: the reference, every profile and mode, and the path without the addon. */
export function c4QualityJs(text: string, o: C4QualityOptions): C4Result {
  const list = units(text, o);
  let numSentences = 0;
  let lorem = false;
  let curly = false;
  let firstDocFail: string | null = null;
  const keptLines: string[] = [];
  // HEAD judges lines with spaCy: the document is tokenized once (shared with the pass) and each line reads its part.
  const spacy = o.split_paragraph && o.profile === 'head';
  const lineTokens = spacy ? new LineTokens(text, viewOf(text).spacyTokens(o.language), o.language) : null;
  let wordCount = 0;
  let search = phraseSearches.get(o);
  if (search === undefined) phraseSearches.set(o, (search = phraseSearch(o)));
  const phrases = search !== null && search.test(text);
  for (const u of list) {
    const words = wordStats(text, u.a, u.b, o.max_word_length);
    if (o.max_word_length !== -1 && words.tooLong) continue;
    // Upstream checks the word count after the terminal punctuation; both only drop the line, and citations matter
    // only in kept lines, so a short line is dropped before it is sliced.
    if (words.count < o.min_words_per_line) continue;
    const raw = text.slice(u.a, u.b);
    let line = raw;
    if (o.remove_citations && raw.includes('[')) {
      CITATION.lastIndex = 0;
      for (let m = CITATION.exec(raw); m !== null; m = CITATION.exec(raw)) (u.cuts ??= []).push([u.a + m.index, u.a + m.index + m[0].length]);
      line = raw.replace(CITATION, '');
    }
    if (o.filter_no_terminal_punct && (!END_PUNCTUATION.some((p) => line.endsWith(p)) || line.endsWith('...'))) continue;
    // A line with citations cut out can join a phrase the text never had ("java[1]script").
    const lower = phrases || u.cuts !== undefined ? line.toLowerCase() : '';
    if (o.filter_lorem_ipsum && lower.includes('lorem ipsum')) {
      lorem = true;
      firstDocFail ??= 'lorem_ipsum';
      continue;
    }
    if (o.filter_javascript && lower.includes('javascript')) continue;
    if (o.filter_curly_bracket && line.includes('{')) {
      curly = true;
      firstDocFail ??= 'curly_bracket';
      continue;
    }
    if (o.filter_policy && hasPolicy(lower)) continue;
    if (lineTokens !== null) {
      const t = lineTokens.of(line, u.a, u.b, u.cuts !== undefined);
      // HEAD counts split_into_sentences pieces (at least one).
      if (o.min_num_sentences !== -1) numSentences += Math.max(1, sentenceCountOfTokens(t.text, t.tokens, t.from, t.to));
      wordCount += nonSpaceTokens(t);
    } else if (o.min_num_sentences !== -1) {
      // Sentences split lines: one each; v0.2.0 counted nltk.sent_tokenize(line).
      numSentences += o.split_paragraph ? sentTokenizeNltk(line).length : 1;
    }
    u.kept = true;
    keptLines.push(line);
  }
  // Upstream returns at the first lorem/curly line; later lines are still judged here so every value is filled in.
  const doc: RuleOutcome[] = [
    { rule: 'lorem_ipsum', value: lorem ? 1 : 0, fail: lorem },
    { rule: 'curly_bracket', value: curly ? 1 : 0, fail: curly },
  ];
  if (firstDocFail === 'curly_bracket') doc.reverse();
  const joiner = o.split_paragraph ? '\n' : ' ';
  return {
    outcomes: [
      ...doc,
      { rule: 'too_few_sentences', value: o.min_num_sentences === -1 ? undefined : numSentences, fail: numSentences < o.min_num_sentences },
    ],
    edits: lineEdits(text, list, o.split_paragraph),
    text: stripText(keptLines.join(joiner)),
    linesKept: keptLines.length,
    linesRemoved: list.length - keptLines.length,
    // Kept lines are joined with "\n", so the rewritten text's words are the kept lines' words.
    words: lineTokens === null ? undefined : wordCount,
  };
}

const RULES = [
  { rule: 'lorem_ipsum', measures: '1 when a line reaching the check contains "lorem ipsum"', range: '0 | 1' },
  { rule: 'curly_bracket', measures: '1 when a line reaching the check contains "{"', range: '0 | 1' },
  { rule: 'too_few_sentences', measures: 'Sentences in kept lines (spaCy sentencizer; punkt-like in fineweb-2024)', range: '≥ 0' },
];

const whole = (len: number, type: string, score: number): TagSpan => ({ start: 0, end: len, type, score });

export const c4QualityTagger: TaggerSpec<C4QualityOptions> = {
  name: 'c4_quality',
  description: 'DataTrove C4QualityFilter: drops documents (lorem ipsum, {, too few sentences) and lines, as line_removed spans',
  outputs: [
    ...filterOutputs(RULES),
    { type: 'lines_kept', description: 'Lines (or sentences) C4 keeps', range: '≥ 0', level: 'document' },
    { type: 'lines_removed', description: 'Lines (or sentences) C4 drops', range: '≥ 0', level: 'document' },
    { type: 'line_removed', description: 'A dropped line with its line break; delete it to get DataTrove\'s text', range: '1', level: 'spans' },
    { type: 'trimmed', description: 'Whitespace and citations DataTrove strips from kept lines and the text ends; delete it', range: '1', level: 'spans' },
    { type: 'separator', description: 'A line break other than \\n (or a sentence gap) between kept units; replace it with \\n (or " ")', range: '1', level: 'spans' },
  ],
  options: c4QualityOptions,
  create(options, ctx) {
    const key = `c4_quality:${JSON.stringify(options)}`;
    primeDataTrove(key, (t) => c4Quality(t, options), ctx);
    return {
      tag: (doc) => {
        // Memoized on the document's view: FineWeb's quality filter reads the same result (after_c4).
        const r = viewOf(doc.text).get(key, (t) => c4Quality(t, options));
        const n = doc.text.length;
        return filterSpans(n, r.outcomes, [whole(n, 'lines_kept', r.linesKept), whole(n, 'lines_removed', r.linesRemoved), ...r.edits]);
      },
    };
  },
};
