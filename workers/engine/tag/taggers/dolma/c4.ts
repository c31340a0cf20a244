// c4_v1 / c4_v2 (`taggers/c4.py`): C4's line heuristics and bad-word, javascript, lorem-ipsum and brace flags.
import { nativeAddon, type NativeAddon } from '../../../native-addon.js';
import { utf16ToCodePoints } from '../../output.js';
import type { TaggerSpec, TagSpan } from '../../types.js';
import { distinctWords } from './gopher-stats.js';
import { NAUGHTY_LINES } from './naughty-words.js';
import { PhraseMatcher } from './phrases.js';
import { docOutput, isPyWs, spanOutput } from './text.js';
import { primeOnce } from './warm-up.js';
import { WordTrie } from './words.js';

const MIN_WORDS_PER_LINE = 3;

interface Line {
  start: number;
  end: number;
  noEndingPunctuation: boolean;
  tooFewWords: boolean;
}

/**
 * Lines of `text.split("\n")`; a line's span takes its `\n` (the last line has none, so a trailing
 * `\n` yields an empty last line with a zero-length span). Lowercasing, which Dolma applies before
 * these checks, cannot change where whitespace is nor the final `. ? ! "`, so either text can be read.
 */
function c4Lines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const stop = nl === -1 ? text.length : nl;
    const last = trimmedEnd(text, start, stop);
    lines.push({ start, end: nl === -1 ? stop : stop + 1, noEndingPunctuation: !endsWithPunctuation(text, start, last), tooFewWords: tooFewWords(text, start, last) });
    if (nl === -1) return lines;
    start = nl + 1;
  }
}

/** End of `text[start, stop)` once `rstrip()`ped. */
function trimmedEnd(text: string, start: number, stop: number): number {
  while (stop > start && isPyWs(text.charCodeAt(stop - 1))) stop--;
  return stop;
}

/** Whether the stripped line `text[start, last)` ends in . ? ! or ". */
function endsWithPunctuation(text: string, start: number, last: number): boolean {
  const c = last > start ? text.charCodeAt(last - 1) : 0;
  return c === 0x2e || c === 0x3f || c === 0x21 || c === 0x22;
}

/** Fewer than MIN_WORDS_PER_LINE words in `text[start, last)` (counting stops at the third). */
function tooFewWords(text: string, start: number, last: number): boolean {
  let words = 0;
  let inWord = false;
  for (let i = start; i < last && words < MIN_WORDS_PER_LINE; i++) {
    const ws = isPyWs(text.charCodeAt(i));
    if (!ws && !inWord) words++;
    inWord = !ws;
  }
  return words < MIN_WORDS_PER_LINE;
}

const NAUGHTY = 1;
const JAVASCRIPT = 2;
/** The bad-word list's single words (and "javascript") as a word trie; the entries with spaces as a phrase automaton. */
const WORDS = new WordTrie();
const NAUGHTY_PHRASES = new PhraseMatcher(NAUGHTY_LINES.filter((w) => w.includes(' ')));
let filled = false;
/**
 * Fills WORDS when a c4 tagger is first created: at module load it cost every tag process ≈ 10 ms, c4 or not. (The
 * tables stay `const`: the per-document code reads them as constants.)
 */
function loadLists(): void {
  if (filled) return;
  filled = true;
  for (const w of NAUGHTY_LINES) if (!w.includes(' ')) WORDS.add(w, NAUGHTY);
  WORDS.add('javascript', JAVASCRIPT);
}

/** Whitespace-split words of the lowercased text: any in the word list, and any equal to "javascript". */
function scanWords(lower: string): { naughty: boolean; javascript: boolean } {
  const found = WORDS.scan(lower, NAUGHTY | JAVASCRIPT);
  return { naughty: (found & NAUGHTY) !== 0, javascript: (found & JAVASCRIPT) !== 0 };
}

/**
 * A word of the lowercased text in the list. The words of `text.lower()` are the lowercased words of the text
 * (lowercasing keeps whitespace where it is, and its context never crosses whitespace), so when gopher_v1 has
 * just read this text each distinct word is looked up once; otherwise the lowered text is scanned.
 */
function hasNaughtyWord(text: string, lower: string): boolean {
  const seen = distinctWords(text);
  // The trie also holds "javascript" (c4_v1's whole-word check): only the NAUGHTY bit counts here.
  if (seen === null) return (WORDS.scan(lower, NAUGHTY) & NAUGHTY) !== 0;
  for (let id = 0; id < seen.count; id++) if ((WORDS.wordTag(text, seen.starts[id]!, seen.ends[id]!) & NAUGHTY) !== 0) return true;
  return false;
}

const lineSpan = (l: Line, type: string): TagSpan => ({ start: l.start, end: l.end, type, score: 1 });

function c4V1Spans(text: string): TagSpan[] {
  const lower = text.toLowerCase();
  const lines = c4Lines(text);
  const spans: TagSpan[] = [];
  for (const l of lines) if (l.noEndingPunctuation) spans.push(lineSpan(l, 'lines_with_no_ending_punctuation'));
  for (const l of lines) if (l.tooFewWords) spans.push(lineSpan(l, 'lines_with_too_few_words'));
  const words = scanWords(lower);
  const flag = (on: boolean, type: string) => on && spans.push({ start: 0, end: text.length, type, score: 1 });
  // Phrases hold spaces, never "\n", so one search of the whole text equals Dolma's per-line search.
  flag(words.naughty || NAUGHTY_PHRASES.test(lower), 'has_naughty_word');
  flag(words.javascript, 'has_javascript');
  flag(lower.includes('lorem ipsum'), 'has_lorem_ipsum');
  flag(lower.includes('{'), 'has_curly_brace');
  spans.push({ start: 0, end: text.length, type: 'line_count', score: lines.length });
  return spans;
}

/**
 * c4_v2 (`FasterC4Tagger`): flags first, "javascript" as a substring, then each line's two checks
 * together. Dolma splits and counts lines on `text.lower()`, not on the text: where lowercasing
 * lengthens it ("İ" U+0130 → "i̇", two code points) every later offset shifts by one and the last
 * spans can pass the text's end. Those offsets are written as Dolma writes them (code points of the
 * lowered text); line_count and the flags span `len(doc.text)`.
 */
export function c4V2Spans(text: string): TagSpan[] {
  const lower = text.toLowerCase();
  const spans: TagSpan[] = [];
  const flag = (on: boolean, type: string) => on && spans.push({ start: 0, end: text.length, type, score: 1 });
  flag(lower.includes('{'), 'has_curly_brace');
  flag(lower.includes('lorem ipsum'), 'has_lorem_ipsum');
  flag(lower.includes('javascript'), 'has_javascript');
  flag(NAUGHTY_PHRASES.test(lower) || hasNaughtyWord(text, lower), 'has_naughty_word');
  // Same length: offsets into the lowered text are offsets into the text (the runtime converts them).
  const toCp = lower.length !== text.length ? (utf16ToCodePoints(lower) ?? ((i: number) => i)) : null;
  const span = (start: number, end: number, type: string): TagSpan =>
    toCp ? { start: toCp(start), end: toCp(end), type, score: 1, codePoints: true } : { start, end, type, score: 1 };
  let count = 0;
  for (let start = 0; ; count++) {
    const nl = lower.indexOf('\n', start);
    const stop = nl === -1 ? lower.length : nl;
    const end = nl === -1 ? stop : stop + 1;
    const last = trimmedEnd(lower, start, stop);
    if (!endsWithPunctuation(lower, start, last)) spans.push(span(start, end, 'lines_with_no_ending_punctuation'));
    if (tooFewWords(lower, start, last)) spans.push(span(start, end, 'lines_with_too_few_words'));
    if (nl === -1) break;
    start = nl + 1;
  }
  spans.push({ start: 0, end: text.length, type: 'line_count', score: count + 1 });
  return spans;
}

let found = new Int32Array(3 * 256);
const info = new Int32Array(2);
const LINE_TYPES = ['lines_with_no_ending_punctuation', 'lines_with_too_few_words'];
/** The bad phrases' automaton in C memory: copied and checked once per process (per addon: there is one). */
let nativePhrases: object | undefined;

/**
 * c4V2Spans with the bad-phrase search and the line loop in C (native/c4.c, the same steps on the lowered text's
 * units): compiling them was most of what c4_v2 cost a fresh process.
 */
export function nativeC4V2Spans(addon: NativeAddon, text: string): TagSpan[] {
  const lower = text.toLowerCase();
  const phrases = (nativePhrases ??= addon.c4Phrases(NAUGHTY_PHRASES.table()));
  let count = addon.c4Lines(phrases, lower, found, info);
  if (3 * count > found.length) {
    found = new Int32Array(3 * count);
    count = addon.c4Lines(phrases, lower, found, info);
  }
  const spans: TagSpan[] = [];
  const flag = (on: boolean, type: string) => on && spans.push({ start: 0, end: text.length, type, score: 1 });
  flag(lower.includes('{'), 'has_curly_brace');
  flag(lower.includes('lorem ipsum'), 'has_lorem_ipsum');
  flag(lower.includes('javascript'), 'has_javascript');
  flag(info[1] === 1 || hasNaughtyWord(text, lower), 'has_naughty_word');
  const toCp = lower.length !== text.length ? (utf16ToCodePoints(lower) ?? ((i: number) => i)) : null;
  for (let k = 0; k < count; k++) {
    const start = found[3 * k + 1]!;
    const end = found[3 * k + 2]!;
    const type = LINE_TYPES[found[3 * k]!]!;
    spans.push(toCp ? { start: toCp(start), end: toCp(end), type, score: 1, codePoints: true } : { start, end, type, score: 1 });
  }
  spans.push({ start: 0, end: text.length, type: 'line_count', score: info[0]! });
  return spans;
}

const outputs = (javascript: string) => [
  spanOutput('lines_with_no_ending_punctuation', 'A line (split on \\n, with its \\n) whose stripped text does not end in . ? ! or "', '1'),
  spanOutput('lines_with_too_few_words', 'A line with fewer than 3 whitespace-separated words', '1'),
  docOutput('has_naughty_word', 'Present when a word (lowercased, punctuation attached) or phrase of the C4 bad-word list occurs', '1'),
  docOutput('has_javascript', javascript, '1'),
  docOutput('has_lorem_ipsum', 'Present when "lorem ipsum" occurs (case-insensitive)', '1'),
  docOutput('has_curly_brace', 'Present when "{" occurs', '1'),
  docOutput('line_count', 'Number of lines of text.split("\\n") (a trailing \\n adds an empty line)', '≥ 1'),
];

export const c4V1: TaggerSpec = {
  name: 'c4_v1',
  description: 'C4 heuristics (Raffel et al. 2020): lines without end punctuation or with < 3 words, and doc flags',
  outputs: outputs('Present when a whitespace-separated word is exactly "javascript" (case-insensitive)'),
  create: () => {
    loadLists();
    return { tag: (doc) => c4V1Spans(doc.text) };
  },
};

export const c4V2: TaggerSpec = {
  name: 'c4_v2',
  description: 'Faster c4_v1: the same attributes, "javascript" matched as a substring, flags emitted first',
  outputs: outputs('Present when "javascript" occurs anywhere (case-insensitive), e.g. in "javascripts"'),
  create: (_options, ctx) => {
    loadLists();
    const addon = nativeAddon();
    if (addon !== null) return { tag: (doc) => nativeC4V2Spans(addon, doc.text) };
    primeOnce('c4_v2', c4V2Spans, ctx);
    return { tag: (doc) => c4V2Spans(doc.text) };
  },
};
