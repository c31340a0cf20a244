// gopher_v1's word and line statistics in one read of the text each, words and lines counted in place (no substrings).
import { nativeAddon } from '../../../native-addon.js';
import { ngramStatsJs, type NgramStats } from './ngrams.js';
import { isPyWs } from './text.js';
import { atLeast, oversized, WordIds } from './word-ids.js';

/** The required English words (2 to 4 letters), packed: a short ASCII word is checked without cutting it out. */
const REQUIRED_ENGLISH_WORDS = new Set(['the', 'be', 'to', 'of', 'and', 'that', 'have', 'with'].map((w) => packed(w, 0, w.length)));
const LETTER = /\p{L}/u;

/** ASCII classes: whitespace for `str.split()`, a letter (`str.isalpha()`), "#" (a symbol word). */
const WS = 1;
const ALPHA = 2;
const SYMBOL = 4;
const NON_ASCII = 8;
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII[c] = (isPyWs(c) ? WS : 0) | ((c | 0x20) >= 97 && (c | 0x20) <= 122 ? ALPHA : 0) | (c === 0x23 ? SYMBOL : 0);

export interface WordStats {
  /** Id of each word of `text.split()` (a view of scratch reused by the next call). */
  ids: Int32Array;
  /** Length in code points of each distinct word, by id (a view of scratch). */
  lens: Int32Array;
  /** Σ word lengths in code points: the non-whitespace characters. */
  chars: number;
  /** Surrogate pairs in the text (all inside words: whitespace is never a surrogate). */
  pairs: number;
  symbolWords: number;
  alphaWords: number;
  requiredWords: number;
  /** Twice the median word length: an integer (a field that is sometimes fractional deoptimises the scan each time). */
  twiceMedian: number;
}

const words = new WordIds();
let ids = new Int32Array(64);
let lens = new Int32Array(64);
/** Per id: 1 when the word has a letter, 2 when it is a required English word. */
let flags = new Int32Array(64);
/** Per id: where its first occurrence starts and ends (UTF-16). */
let starts = new Int32Array(64);
let ends = new Int32Array(64);
/** The text the tables above describe, until the next call, and its number of distinct words. */
let scanned: string | null = null;
let distinct = 0;
/** Whether the C addon scanned it (its first occurrences are in cStarts and cEnds). */
let scannedNatively = false;
/** Word lengths up to SHORT counted, longer ones listed: the median without sorting. */
const SHORT = 256;
const hist = new Int32Array(SHORT + 1);

/** One pass over `text.split()`: word ids, lengths in code points, and the per-word counts. */
export function wordStats(text: string): WordStats {
  const n = text.length;
  scanned = null;
  words.reset(text, (n >> 3) + 8);
  if (oversized(lens.length, (n >> 1) + 1)) {
    lens = new Int32Array(64);
    flags = new Int32Array(64);
    starts = new Int32Array(64);
    ends = new Int32Array(64);
  }
  ids = atLeast(ids, (n >> 1) + 1);
  hist.fill(0);
  const long: number[] = [];
  let count = 0;
  let chars = 0;
  let pairs = 0;
  let symbolWords = 0;
  let alphaWords = 0;
  let requiredWords = 0;
  for (let i = 0; i < n; ) {
    const c0 = text.charCodeAt(i);
    if (c0 < 128 ? (ASCII[c0]! & WS) !== 0 : isPyWs(c0)) {
      i++;
      continue;
    }
    const a = i;
    let bits = 0;
    let wordPairs = 0;
    let h = 0x811c9dc5 | 0;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 128) {
        const k = ASCII[c]!;
        if ((k & WS) !== 0) break;
        bits |= k;
      } else {
        if (isPyWs(c)) break;
        bits |= c === 0x2026 ? NON_ASCII | SYMBOL : NON_ASCII;
        if ((c & 0xfc00) === 0xdc00 && i > a && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) wordPairs++;
      }
      h = Math.imul(h ^ c, 0x01000193);
    }
    const len = i - a - wordPairs;
    const id = words.id(h, a, i);
    if (words.isNew) {
      if (id >= lens.length) {
        lens = grown(lens, id);
        flags = grown(flags, id);
        starts = grown(starts, id);
        ends = grown(ends, id);
      }
      starts[id] = a;
      ends[id] = i;
      lens[id] = len;
      flags[id] = newWordFlags(text, a, i, bits);
    }
    ids[count++] = id;
    chars += len;
    pairs += wordPairs;
    if (len <= SHORT) hist[len]!++;
    else long.push(len);
    if ((bits & SYMBOL) !== 0) symbolWords++;
    const f = flags[id]!;
    alphaWords += f & 1;
    requiredWords += f >> 1;
  }
  scanned = text;
  scannedNatively = false;
  distinct = words.size;
  return { ids: ids.subarray(0, count), lens: lens.subarray(0, words.size), chars, pairs, symbolWords, alphaWords, requiredWords, twiceMedian: twiceMedian(long, count) };
}

/**
 * The distinct words of `text` (first occurrences, in order) when it is the text wordStats read last, else null:
 * c4_v2 run after gopher_v1 checks each distinct word once instead of reading the text again.
 */
export function distinctWords(text: string): { starts: Int32Array; ends: Int32Array; count: number } | null {
  if (scanned !== text) return null;
  return scannedNatively ? { starts: cStarts, ends: cEnds, count: distinct } : { starts, ends, count: distinct };
}

function grown(buf: Int32Array<ArrayBuffer>, id: number): Int32Array<ArrayBuffer> {
  const out = new Int32Array(Math.max(64, id * 2));
  out.set(buf);
  return out;
}

/** str.isalpha() per character is Unicode category L*: only non-ASCII words without an ASCII letter need the regex. */
function newWordFlags(text: string, a: number, end: number, bits: number): number {
  const alpha = (bits & ALPHA) !== 0 || ((bits & NON_ASCII) !== 0 && LETTER.test(text.slice(a, end)));
  const required = end - a <= 4 && (bits & NON_ASCII) === 0 && REQUIRED_ENGLISH_WORDS.has(packed(text, a, end));
  return (alpha ? 1 : 0) | (required ? 2 : 0);
}

/** An ASCII word of at most 4 units as one integer: 7 bits a unit, then its length (so "\0the" ≠ "the"). */
function packed(text: string, a: number, end: number): number {
  let p = 0;
  for (let i = a; i < end; i++) p = (p << 7) | text.charCodeAt(i);
  return p * 8 + (end - a);
}

/** 2 × statistics.median over the word lengths (`hist` plus the sorted `long` ones); 0 if empty. */
function twiceMedian(long: number[], count: number): number {
  if (count === 0) return 0;
  long.sort((x, y) => x - y);
  const nth = (k: number): number => {
    let seen = 0;
    for (let len = 0; len <= SHORT; len++) {
      seen += hist[len]!;
      if (seen > k) return len;
    }
    return long[k - seen]!;
  };
  const mid = count >> 1;
  return count % 2 === 1 ? 2 * nth(mid) : nth(mid - 1) + nth(mid);
}

const lines = new WordIds();
let lineCounts = new Int32Array(64);
let lineStart = new Int32Array(64);
let lineEnd = new Int32Array(64);

/** `text.split("\n")` line statistics; `pairs` > 0 when the text has surrogate pairs (code points ≠ units). */
export function lineStats(text: string, nonWsChars: number, pairs: number) {
  const n = text.length;
  lines.reset(text, (n >> 6) + 8);
  if (oversized(lineCounts.length, n + 1)) {
    lineCounts = new Int32Array(64);
    lineStart = new Int32Array(64);
    lineEnd = new Int32Array(64);
  }
  let count = 0;
  let bullets = 0;
  let ellipsis = 0;
  for (let start = 0; ; ) {
    let h = 0x811c9dc5 | 0;
    let end = start;
    for (; end < n; end++) {
      const c = text.charCodeAt(end);
      if (c === 10) break;
      h = Math.imul(h ^ c, 0x01000193);
    }
    count++;
    if (end > start) {
      const first = text.charCodeAt(start);
      if (first === 0x2a || first === 0x2d) bullets++;
      if (text.charCodeAt(end - 1) === 0x2026) ellipsis++;
    }
    const id = lines.id(h, start, end);
    if (lines.isNew) {
      if (id >= lineCounts.length) {
        lineCounts = grown(lineCounts, id);
        lineStart = grown(lineStart, id);
        lineEnd = grown(lineEnd, id);
      }
      lineCounts[id] = 0;
      lineStart[id] = start;
      lineEnd[id] = end;
    }
    lineCounts[id]!++;
    if (end >= n) break;
    start = end + 1;
  }
  let dupLines = 0;
  let dupChars = 0;
  for (let id = 0; id < lines.size; id++) {
    const c = lineCounts[id]!;
    if (c > 1) {
      dupLines += c;
      const s = lineStart[id]!;
      const e = lineEnd[id]!;
      dupChars += (pairs > 0 ? e - s - pairsIn(text, s, e) : e - s) * c;
    }
  }
  return {
    bullet: bullets / count,
    ellipsis: ellipsis / count,
    duplicateLines: dupLines / count,
    // Divided by the non-whitespace character count, not the line characters [Dolma quirk].
    duplicateLineChars: dupChars / Math.max(nonWsChars, 1),
  };
}

/** Surrogate pairs inside `text[s, e)`. */
function pairsIn(text: string, s: number, e: number): number {
  let p = 0;
  for (let i = s + 1; i < e; i++) if ((text.charCodeAt(i) & 0xfc00) === 0xdc00 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) p++;
  return p;
}

/** Everything gopher_v1 reports of a text, before the divisions (gopher.ts makes the ratios). */
export interface GopherCounts extends Omit<WordStats, 'ids' | 'lens'> {
  words: number;
  lines: ReturnType<typeof lineStats>;
  grams: NgramStats[];
}

const addon = nativeAddon();
const out = new Float64Array(12 + 36);
let cStarts = new Int32Array(64);
let cEnds = new Int32Array(64);
let pending = new Int32Array(64);
let pendingCount = new Int32Array(64);

/**
 * wordStats, ngramStats and lineStats of `text`: in one call to the C addon when it is built (native/gopher.c, the
 * same scans; it hands back the non-ASCII words without an ASCII letter, once each, for LETTER to decide, as
 * newWordFlags does), else in JavaScript. Either way `distinctWords(text)` then answers for c4_v2.
 */
export function gopherCounts(text: string): GopherCounts {
  if (addon === null) return gopherCountsJs(text);
  scanned = null;
  const need = (text.length >> 1) + 2;
  if (cStarts.length < need || oversized(cStarts.length, need)) {
    const size = cStarts.length < need ? Math.max(need, cStarts.length * 2) : need;
    cStarts = new Int32Array(size);
    cEnds = new Int32Array(size);
    pending = new Int32Array(size);
    pendingCount = new Int32Array(size);
  }
  // Indexed reads, not destructuring: a destructured array goes through the iterator protocol, which V8 runs
  // slowly before optimizing the function and inlines at length when it does (this function took ≈ 90 ms to compile).
  const counts = addon.gopherStats(text, out, cStarts, cEnds, pending, pendingCount);
  const orders = counts[0];
  const found = counts[1];
  const waiting = counts[2];
  let alphaWords = out[4]!;
  for (let k = 0; k < waiting; k++) {
    const id = pending[k]!;
    if (LETTER.test(text.slice(cStarts[id], cEnds[id]))) alphaWords += pendingCount[k]!;
  }
  scanned = text;
  scannedNatively = true;
  distinct = found;
  const chars = out[1]!;
  const lineCount = out[7]!;
  const grams: NgramStats[] = [];
  for (let k = 0; k < orders; k++) grams.push({ n: out[12 + 4 * k]!, mostCommonChars: out[13 + 4 * k]!, duplicateChars: out[14 + 4 * k]!, totalChars: out[15 + 4 * k]! });
  const lines = {
    bullet: out[8]! / lineCount,
    ellipsis: out[9]! / lineCount,
    duplicateLines: out[10]! / lineCount,
    duplicateLineChars: out[11]! / Math.max(chars, 1),
  };
  return { words: out[0]!, chars, pairs: out[2]!, symbolWords: out[3]!, alphaWords, requiredWords: out[5]!, twiceMedian: out[6]!, grams, lines };
}

/** gopherCounts in JavaScript (where the addon is not built; the tests compare the two). */
export function gopherCountsJs(text: string): GopherCounts {
  const w = wordStats(text);
  const grams = ngramStatsJs(w.ids, w.lens, 10);
  return { words: w.ids.length, chars: w.chars, pairs: w.pairs, symbolWords: w.symbolWords, alphaWords: w.alphaWords, requiredWords: w.requiredWords, twiceMedian: w.twiceMedian, grams, lines: lineStats(text, w.chars, w.pairs) };
}
