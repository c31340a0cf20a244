// Python's per-character predicates (isspace/isalpha/isdigit/isupper…) and str.isupper/istitle, table-driven for speed.
import { PUNCTUATION } from '../../../text/charsets.js';
import { PY_WS } from '../../../text/python.js';

/** The Gopher stop words DataTrove's WordStats counts by default (gopher_quality_filter.STOP_WORDS). */
export const STOP_WORDS = ['the', 'be', 'to', 'of', 'and', 'that', 'have', 'with'];

// Class bits. Hot loops live in this module: under tsx/vitest an imported constant is a getter call.
export const SPACE = 1;
export const ALPHA = 2;
export const DIGIT = 4;
export const UPPER = 8;
export const LOWER = 16;
export const TITLE = 32;
export const PUNCT = 64;

/**
 * `str.isdigit()` is Numeric_Type Digit or Decimal: \p{Nd} plus these No characters (superscripts,
 * circled digits…), listed from CPython 3.11's unicodedata since JS regexes cannot name Numeric_Type.
 */
const EXTRA_DIGITS = /[\u00b2\u00b3\u00b9\u1369-\u1371\u19da\u2070\u2074-\u2079\u2080-\u2089\u2460-\u2468\u2474-\u247c\u2488-\u2490\u24ea\u24f5-\u24fd\u24ff\u2776-\u277e\u2780-\u2788\u278a-\u2792\u{10a40}-\u{10a43}\u{10e60}-\u{10e68}\u{11052}-\u{1105a}\u{1f100}-\u{1f10a}]/u;
const L = /\p{L}/u;
const ND = /\p{Nd}/u;
const UP = /\p{Uppercase}/u;
const LO = /\p{Lowercase}/u;
const LT = /\p{Lt}/u;
const PUNCT_SET = new Set(PUNCTUATION);

function classify(c: string): number {
  return (
    (PY_WS.test(c) ? SPACE : 0) |
    (L.test(c) ? ALPHA : 0) |
    (ND.test(c) || EXTRA_DIGITS.test(c) ? DIGIT : 0) |
    (UP.test(c) ? UPPER : 0) |
    (LO.test(c) ? LOWER : 0) |
    (LT.test(c) ? TITLE : 0) |
    (PUNCT_SET.has(c) ? PUNCT : 0)
  );
}

let bmp: Uint8Array | undefined;
const astral = new Map<number, number>();

/** The class bits of one code point (BMP from a table built on first use, astral ones memoised). */
export function charClass(cp: number): number {
  if (cp < 0x10000) {
    if (bmp === undefined) {
      bmp = new Uint8Array(0x10000);
      for (let i = 0; i < 0x10000; i++) bmp[i] = classify(String.fromCharCode(i));
    }
    return bmp[cp] as number;
  }
  let k = astral.get(cp);
  if (k === undefined) astral.set(cp, (k = classify(String.fromCodePoint(cp))));
  return k;
}

/** Python `w.isupper()`: some uppercase character and no lowercase or titlecase one. */
export function pyIsUpper(w: string): boolean {
  let cased = false;
  for (const ch of w) {
    const k = charClass(ch.codePointAt(0) as number);
    if (k & (LOWER | TITLE)) return false;
    if (k & UPPER) cased = true;
  }
  return cased;
}

/** Python `w.istitle()`: every run of cased characters starts upper/titlecase and continues lowercase. */
export function pyIsTitle(w: string): boolean {
  let cased = false;
  let previousCased = false;
  for (const ch of w) {
    const k = charClass(ch.codePointAt(0) as number);
    if (k & (UPPER | TITLE)) {
      if (previousCased) return false;
      previousCased = cased = true;
    } else if (k & LOWER) {
      if (!previousCased) return false;
      previousCased = cased = true;
    } else previousCased = false;
  }
  return cased;
}

/** Per-class counts over the code points of `text` (DocStats' numerators) in one pass. */
export function countClasses(text: string): { len: number; space: number; nonAlphaDigit: number; digit: number; upper: number; punct: number } {
  let len = 0;
  let space = 0;
  let nonAlphaDigit = 0;
  let digit = 0;
  let upper = 0;
  let punct = 0;
  for (let i = 0; i < text.length; i++) {
    let cp = text.charCodeAt(i);
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        i++;
      }
    }
    len++;
    const k = charClass(cp);
    if (k & SPACE) space++;
    if (!(k & (ALPHA | DIGIT))) nonAlphaDigit++;
    if (k & DIGIT) digit++;
    if (k & UPPER) upper++;
    if (k & PUNCT) punct++;
  }
  return { len, space, nonAlphaDigit, digit, upper, punct };
}
