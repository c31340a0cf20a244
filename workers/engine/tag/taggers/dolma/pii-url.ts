// The URL check of pii_regex_v1/v2 as Dolma really runs it: a backspace-anchored regex (a non-raw "\b").
import { isPyWs } from './text.js';

/*
 * pii.py compiles `"(?i)\b((?:https?://|www\d{0,3}[.]|[a-z0-9.\-]+[.][a-z]{2,4}/)(?:[^\s()<>]+|\(([^\s()<>]+|
 * (\([^\s()<>]+\)))*\))+(?:\(([^\s()<>]+|(\([^\s()<>]+\)))*\)|[^\s`!()\[\]{};:'".,<>?«»“”‘’]))"` from a
 * non-raw string, so `\b` is U+0008 BACKSPACE [Dolma quirk]: a "URL" is only found right after a
 * backspace character, which is why phone numbers are almost never dropped for it. Dolma only asks
 * whether a match exists (`findall(...) > 0`); run as a backtracking regex that nested `(...+)+` is
 * exponential, so existence is decided directly: after the prefix, the body is a chain of atoms (a
 * character of [^\s()<>] or a parenthesised group) and a match exists iff some atom after the first
 * is a group or a character allowed last.
 */

/** `[^\s()<>]` */
const isBody = (c: number) => c !== 0x28 && c !== 0x29 && c !== 0x3c && c !== 0x3e && !isPyWs(c);
const NOT_LAST = new Set([...'`!()[]{};:\'".,<>?«»“”‘’'].map((ch) => ch.charCodeAt(0)));
/** `[^\s`!()\[\]{};:'".,<>?«»“”‘’]` */
const isLast = (c: number) => !NOT_LAST.has(c) && !isPyWs(c);

/** Python `[a-z]` under IGNORECASE: ASCII letters plus İ ı ſ K (re docs). */
const isLetterCi = (c: number) => ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x130 || c === 0x131 || c === 0x17f || c === 0x212a;
const DIGIT = /\p{Nd}/u;

/** Case-insensitive literal at i (no special folds apply to h, t, p, w). */
function literalCi(text: string, i: number, lit: string): boolean {
  if (i + lit.length > text.length) return false;
  for (let k = 0; k < lit.length; k++) if ((text.charCodeAt(i + k) | 0x20) !== lit.charCodeAt(k)) return false;
  return true;
}

/** Every end of `https?://|www\d{0,3}[.]|[a-z0-9.\-]+[.][a-z]{2,4}/` at q (each alternative is deterministic). */
function prefixEnds(text: string, q: number): number[] {
  const ends: number[] = [];
  if (literalCi(text, q, 'http')) {
    let i = q + 4;
    const c = text.charCodeAt(i);
    if ((c | 0x20) === 0x73 || c === 0x17f) i++;
    if (text.startsWith('://', i)) ends.push(i + 3);
  }
  if (literalCi(text, q, 'www')) {
    let i = q + 3;
    for (let k = 0; k < 3 && i < text.length; k++) {
      const cp = text.codePointAt(i)!;
      if (!DIGIT.test(String.fromCodePoint(cp))) break;
      i += cp > 0xffff ? 2 : 1;
    }
    if (text.charCodeAt(i) === 0x2e) ends.push(i + 1);
  }
  let r = q;
  for (let c = text.charCodeAt(r); isLetterCi(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d; c = text.charCodeAt(++r));
  if (text.charCodeAt(r) === 0x2f) {
    for (let k = 2; k <= 4; k++) {
      const dot = r - k - 1;
      if (dot <= q || text.charCodeAt(dot) !== 0x2e) continue;
      let letters = true;
      for (let i = dot + 1; i < r; i++) letters &&= isLetterCi(text.charCodeAt(i));
      if (letters) {
        ends.push(r + 1);
        break;
      }
    }
  }
  return ends;
}

/** End of `\(([^\s()<>]+|(\([^\s()<>]+\)))*\)` at k, or -1. */
function group(text: string, k: number): number {
  if (text.charCodeAt(k) !== 0x28) return -1;
  for (k++; k < text.length; ) {
    const c = text.charCodeAt(k);
    if (c === 0x29) return k + 1;
    if (isBody(c)) k++;
    else if (c === 0x28) {
      let j = k + 1;
      while (j < text.length && isBody(text.charCodeAt(j))) j++;
      if (j === k + 1 || text.charCodeAt(j) !== 0x29) return -1;
      k = j + 1;
    } else return -1;
  }
  return -1;
}

function bodyMatches(text: string, x: number): boolean {
  let k = x < text.length && isBody(text.charCodeAt(x)) ? x + 1 : group(text, x);
  if (k < 0) return false;
  while (k < text.length) {
    const c = text.charCodeAt(k);
    if (isLast(c) && isBody(c)) return true;
    if (c === 0x28) return group(text, k) >= 0;
    if (!isBody(c)) return false;
    k++;
  }
  return false;
}

/** Whether Dolma's (backspace-anchored) URL regex finds anything in `text`. */
export function containsDeadUrl(text: string): boolean {
  for (let i = text.indexOf('\b'); i !== -1; i = text.indexOf('\b', i + 1)) {
    for (const x of prefixEnds(text, i + 1)) if (bodyMatches(text, x)) return true;
  }
  return false;
}
