// One-pass `split_into_words(simplify_text(text))` (HEAD, English) written as UTF-8: ASCII words inline, the rest per word.
import { PUNCTUATION } from './charsets.js';
import { simplifyText } from './simplify.js';
import { isPySpace, type SpacyTokenizer } from './spacy/tokenizer.js';
import { splitIntoWords, tokenizerFor } from './words.js';

/*
 * HEAD simplify_text works character by character except for numbers: lowercase, each `\d+([.,]\d+)?` becomes "0",
 * every PUNCTUATION or whitespace run becomes one space, NFD then marks (Mn) removed, no space at either end. So the
 * simplified text is the chunks between separator runs, each simplified on its own and joined by single spaces, and
 * spaCy tokenizes each whitespace-delimited chunk on its own too. An ASCII chunk simplifies to [a-z0]+ inline. A
 * chunk of letters only has no prefix, suffix, infix or URL match (those need punctuation, symbols, or a digit
 * before a unit), so it is one token unless it is a tokenizer exception ("dont" → "do" "nt"); a chunk with a digit
 * or that may be an exception asks the tokenizer. A chunk with other characters goes through simplifyText and
 * splitIntoWords itself. Two kinds of character are not chunk-local and make `write` return -1 (the caller then
 * takes the general path): non-ASCII digits (a number may continue across a "." or "," separator) and `Σ`
 * (lowercased by what follows it: final sigma).
 */

const OTHER = 0;
const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
const SEP = 4;
const FOREIGN = 5;

const CLS = new Uint8Array(0x10000).fill(FOREIGN);
for (let c = 0; c < 0x10000; c++) if (/\p{Nd}/u.test(String.fromCharCode(c))) CLS[c] = OTHER;
CLS[0x3a3] = OTHER;
for (let c = 0x61; c <= 0x7a; c++) CLS[c] = LOWER;
for (let c = 0x41; c <= 0x5a; c++) CLS[c] = UPPER;
for (let c = 0x30; c <= 0x39; c++) CLS[c] = DIGIT;
for (const ch of PUNCTUATION) {
  const c = ch.codePointAt(0) ?? 0;
  // Punctuation is turned into spaces only after numbers are normalised, so a digit in PUNCTUATION (`１`) is not.
  if (CLS[c] !== OTHER) CLS[c] = SEP;
}
for (let c = 0; c < 0x10000; c++) if (isPySpace(c)) CLS[c] = SEP;

const HAS_DIGIT = 1;
const HAS_FOREIGN = 2;
/** Astral digits (the BMP ones are OTHER already). */
const NON_ASCII_DIGIT = /(?![0-9])\p{Nd}/u;
const encoder = new TextEncoder();

const hashStep = (h: number, c: number): number => (Math.imul(h, 31) + c) | 0;
const finish = (h: number, len: number): number => Math.imul(h ^ len, 0x9e3779b1) | 1;

export class HeadWordsWriter {
  readonly #tok: SpacyTokenizer;
  /** Open-addressing set of `finish(hash, length)` of every all-[a-z] exception key (0 = empty slot). */
  readonly #exc: Int32Array;
  readonly #zero: readonly number[];
  #count = 0;

  constructor(tok: SpacyTokenizer = tokenizerFor('eng')) {
    this.#tok = tok;
    const keys = [...tok.exceptionKeys()].filter((k) => /^[a-z]+$/.test(k));
    let size = 16;
    while (size < keys.length * 4) size *= 2;
    this.#exc = new Int32Array(size);
    for (const k of keys) {
      let h = 0;
      for (let i = 0; i < k.length; i++) h = hashStep(h, k.charCodeAt(i));
      const f = finish(h, k.length);
      let slot = f & (size - 1);
      while (this.#exc[slot] !== 0 && this.#exc[slot] !== f) slot = (slot + 1) & (size - 1);
      this.#exc[slot] = f;
    }
    this.#zero = tok.chunkLengths('0');
  }

  /**
   * Writes the words joined by single spaces to `out` as UTF-8 from offset 0, and word i's start offset to
   * `starts[i]`, then `starts[count]` = end + 1 (where a next word would start). Returns the word count, or -1 when
   * `text` has a character this path does not handle or the words do not fit. `out` should have 2 × text.length + 16
   * bytes (an ASCII chunk split into words gains spaces, and a chunk's output never exceeds twice its input
   * otherwise; non-ASCII words are checked as they are written), `starts` text.length + 2 entries.
   */
  write(text: string, out: Uint8Array, starts: Int32Array): number {
    const n = text.length;
    let o = 0;
    let t = 0;
    let chunk = -1;
    let src = 0;
    let h = 0;
    let flags = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 0x20;
      const k = CLS[c] as number;
      if (k === SEP) {
        if (chunk < 0) continue;
        if (flags === 0 && !this.#maybeException(h, o - chunk)) starts[t++] = chunk;
        else {
          o = this.#close(text, src, i, out, chunk, o, flags, starts, t);
          if (o < 0) return -1;
          t = this.#count;
        }
        chunk = -1;
        continue;
      }
      if (k === OTHER) return -1;
      if (chunk < 0) {
        if (t > 0) out[o++] = 0x20;
        chunk = o;
        src = i;
        h = 0;
        flags = 0;
      }
      if (k === DIGIT) {
        // HEAD NUMBERS_PATTERN: digits, optionally one [.,] and more digits, all become a single "0".
        while (i + 1 < n && CLS[text.charCodeAt(i + 1)] === DIGIT) i++;
        const sep = i + 2 < n ? text.charCodeAt(i + 1) : 0;
        if ((sep === 0x2e || sep === 0x2c) && CLS[text.charCodeAt(i + 2)] === DIGIT) {
          i += 2;
          while (i + 1 < n && CLS[text.charCodeAt(i + 1)] === DIGIT) i++;
        }
        out[o++] = 0x30;
        flags |= HAS_DIGIT;
      } else if (k === FOREIGN) {
        flags |= HAS_FOREIGN;
      } else {
        const lower = k === UPPER ? c + 32 : c;
        out[o++] = lower;
        h = hashStep(h, lower);
      }
    }
    starts[t] = o + 1;
    return t;
  }

  /**
   * Records the words of a chunk that has a digit, a non-ASCII character, or may be an exception: text[src, end)
   * in the input, out[start, o) as written so far. Returns the new end of the output (-1: give up), the new word
   * count in `#count`.
   */
  #close(text: string, src: number, end: number, out: Uint8Array, start: number, o: number, flags: number, starts: Int32Array, t: number): number {
    if ((flags & HAS_FOREIGN) !== 0) {
      const raw = text.slice(src, end);
      if (NON_ASCII_DIGIT.test(raw)) return -1;
      const words = splitIntoWords(simplifyText(raw, {}, 'head'));
      // A chunk that simplifies to nothing takes back the space written before it.
      let p = words.length === 0 && t > 0 ? start - 1 : start;
      for (const w of words) {
        if (p > start) out[p++] = 0x20;
        starts[t++] = p;
        const r = encoder.encodeInto(w, out.subarray(p));
        if (r.read < w.length) return -1;
        p += r.written;
      }
      this.#count = t;
      // Such words can outgrow their input (Hangul decomposes into 2-3 jamo), so check that the rest still fits.
      return out.length - p >= 2 * (text.length - end) + 1 ? p : -1;
    }
    let lengths: readonly number[];
    let chunk = '';
    if (o - start === 1 && (flags & HAS_DIGIT) !== 0) {
      chunk = '0';
      lengths = this.#zero;
    } else {
      for (let i = start; i < o; i++) chunk += String.fromCharCode(out[i] as number);
      lengths = this.#tok.chunkLengths(chunk);
    }
    if (lengths.length === 1) {
      starts[t] = start;
      this.#count = t + 1;
      return o;
    }
    let p = start;
    let at = 0;
    for (const len of lengths) {
      if (p > start) out[p++] = 0x20;
      starts[t++] = p;
      for (const e = at + len; at < e; at++) out[p++] = chunk.charCodeAt(at);
    }
    this.#count = t;
    return p;
  }

  #maybeException(h: number, len: number): boolean {
    const exc = this.#exc;
    const mask = exc.length - 1;
    const f = finish(h, len);
    for (let slot = f & mask; ; slot = (slot + 1) & mask) {
      const v = exc[slot] as number;
      if (v === f) return true;
      if (v === 0) return false;
    }
  }
}
