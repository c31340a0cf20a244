// Linear-time equivalents of Dolma's PII regexes (`taggers/pii.py`), with Python `re` finditer semantics.
import { isPyWs } from './text.js';

/** One match: the whole match `[start, end)` and group 1 `[groupStart, groupEnd)` (UTF-16). */
export interface PiiMatch {
  start: number;
  end: number;
  groupStart: number;
  groupEnd: number;
}

// The punctuation of the email regex: `.` `@` `,` `?` `!` `;` `:` `)` `(` (plus \s in P).
const EMAIL_PUNCT = new Uint8Array(128);
for (const ch of '.@,?!;:)(') EMAIL_PUNCT[ch.charCodeAt(0)] = 1;
/** `[.\s@,?!;:)(]` */
const isP = (c: number) => (c < 128 && EMAIL_PUNCT[c] === 1) || isPyWs(c);
/** `[^\s@,?!;:)(]` (the domain class: like P's complement, but "." is allowed). */
const isD = (c: number) => c === 0x2e || !isP(c);

/** `[^\s@]` (the local-part class). */
const isA = (c: number) => c !== 0x40 && !isPyWs(c);

/**
 * finditer of `[.\s@,?!;:)(]*([^\s@]+@[^\s@,?!;:)(]+?)[.\s@,?!;:)(]?[\s\n\r]` over `text[from:to]`.
 *
 * Python's backtracking is quadratic on long runs without "@" (Dolma #123); the matches follow from
 * the pattern's shape instead. A match is anchored by its "@" v: the local part is a non-empty run
 * of [^\s@] ending at v and the prefix a run of punctuation (P) before it, so the starts that can
 * reach v form one interval [smin(v), v), and smin never decreases with v. The leftmost start is
 * therefore set by the first "@" whose domain tail succeeds. At that start the engine's own order
 * decides which "@" is used: first the one after the greedy P-run (local part starting where the
 * run ends), else — giving back P characters from the right — the last "@" inside the run that
 * follows a character of both classes (. , ? ! ; : ) or ().
 */
export function findEmails(text: string, from = 0, to = text.length): PiiMatch[] {
  const out: PiiMatch[] = [];
  let pos = from;
  while (pos < to) {
    let v = text.indexOf('@', pos + 1);
    let tail: Tail | null = null;
    for (; v !== -1 && v < to; v = text.indexOf('@', v + 1)) {
      if (isA(text.charCodeAt(v - 1)) && (tail = emailTail(text, v, to)) !== null) break;
    }
    if (v === -1 || v >= to || tail === null) break;
    let s = v - 1;
    while (s > pos && isA(text.charCodeAt(s - 1))) s--;
    while (s > pos && isP(text.charCodeAt(s - 1))) s--;
    let p = s;
    while (p < to && isP(text.charCodeAt(p))) p++;
    let r = p;
    while (r < to && isA(text.charCodeAt(r))) r++;
    let groupStart = p;
    tail = p < to && text.charCodeAt(r) === 0x40 ? emailTail(text, r, to) : null;
    for (let u = p - 1; tail === null && u > s; u--) {
      const c = text.charCodeAt(u - 1);
      if (text.charCodeAt(u) === 0x40 && isA(c) && isP(c) && (tail = emailTail(text, u, to)) !== null) groupStart = u - 1;
    }
    // The interval argument guarantees a winner; the guard only protects the loop.
    if (tail === null) break;
    out.push({ start: s, end: tail.end, groupStart, groupEnd: tail.groupEnd });
    pos = tail.end;
  }
  return out;
}

interface Tail {
  end: number;
  groupEnd: number;
}

function emailTail(text: string, at: number, to: number): Tail | null {
  const ds = at + 1;
  let de = ds;
  while (de < to && isD(text.charCodeAt(de))) de++;
  const m = de - ds;
  if (m === 0 || de >= to) return null;
  // Shortest domain first: k = m - 1 works when the domain ends in "." and whitespace follows.
  if (m >= 2 && text.charCodeAt(de - 1) === 0x2e && isPyWs(text.charCodeAt(de))) return { end: de + 1, groupEnd: de - 1 };
  // k = m: the optional punctuation takes text[de] (always in P here) if whitespace follows it.
  if (de + 1 < to && isPyWs(text.charCodeAt(de + 1))) return { end: de + 2, groupEnd: de };
  if (isPyWs(text.charCodeAt(de))) return { end: de + 1, groupEnd: de };
  return null;
}

const DIGIT = /\p{Nd}/u;
/** Per BMP unit at or above U+0660 (the first non-ASCII Nd): 0 not yet asked, 1 a digit, 2 not; filled as met. */
const BMP_ND = new Uint8Array(0x10000);

/** `\d` (Unicode Nd) for a code point: ASCII by comparison, others asked of the regex once each (BMP) or always (astral, rare). */
function isNd(cp: number): boolean {
  if (cp < 0x660) return cp >= 0x30 && cp <= 0x39;
  if (cp > 0xffff) return DIGIT.test(String.fromCodePoint(cp));
  let k = BMP_ND[cp]!;
  if (k === 0) BMP_ND[cp] = k = DIGIT.test(String.fromCharCode(cp)) ? 1 : 2;
  return k === 1;
}

/** UTF-16 length of the `\d` (Unicode Nd) code point at i, or 0. */
function digitAt(text: string, i: number, to: number): number {
  if (i >= to) return 0;
  const c = text.charCodeAt(i);
  if (c < 0x660) return c >= 0x30 && c <= 0x39 ? 1 : 0;
  const cp = text.codePointAt(i)!;
  const w = cp > 0xffff ? 2 : 1;
  return i + w <= to && isNd(cp) ? w : 0;
}

/** Units that can start a `\d`: ASCII digits and everything from U+0660 (the first non-ASCII Nd) up, surrogates included. */
const CANDIDATE = /[0-9\u0660-\uffff]/g;
/** The last candidate search: no candidate in `memoText[memoFrom, memoAt)`, one at memoAt (or memoAt = its length). */
let memoText = '';
let memoFrom = 0;
let memoAt = 0;

/**
 * First candidate unit at or after `from`. A native search (several times faster than a loop over units); the
 * memo answers the repeated searches from inside one gap (one per paragraph) without scanning the gap again.
 */
function nextCandidate(text: string, from: number): number {
  if (from >= memoFrom && from <= memoAt && text === memoText) return memoAt;
  CANDIDATE.lastIndex = from;
  const m = CANDIDATE.exec(text);
  memoText = text;
  memoFrom = from;
  memoAt = m === null ? text.length : m.index;
  return memoAt;
}

/**
 * Offset of the first `\d` in `text[from, to)` (a regex `\p{Nd}` search with the `u` flag: an astral digit is
 * found at its high half, never at a lone low half), or -1.
 */
export function nextDigit(text: string, from: number, to = text.length): number {
  for (let i = nextCandidate(text, from); i < to; i = nextCandidate(text, i + 1)) {
    const c = text.charCodeAt(i);
    if (c <= 0x39) return i;
    // A low half after a high one belongs to the pair starting before `from` (the regex would skip it) or already tried.
    if ((c & 0xfc00) === 0xdc00 && i > 0 && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) continue;
    if (isNd(text.codePointAt(i)!)) return i;
  }
  return -1;
}

function digits(text: string, i: number, count: number, to: number): number {
  for (let k = 0; k < count; k++) {
    const w = digitAt(text, i, to);
    if (w === 0) return -1;
    i += w;
  }
  return i;
}

const isSep = (c: number) => c === 0x2d || c === 0x2e || c === 0x20;

/**
 * finditer of `\s+\(?(\d{3})\)?[-\. ]*(\d{3})[-. ]?(\d{4})` over `text[from:to]`. Python retries
 * every start inside a whitespace run, each time re-scanning the run (quadratic on long runs);
 * the rest of the pattern can only begin after the run, so it is tried once per run. Each
 * optional piece is followed by a class it excludes, so the rest needs no backtracking.
 */
export function findPhones(text: string, from = 0, to = text.length): PiiMatch[] {
  const out: PiiMatch[] = [];
  // Only a whitespace run followed by a digit, or by "(" and a digit, can start a match, so the
  // search jumps from digit to digit instead of visiting every run.
  let pos = from;
  for (let d = nextDigit(text, from, to); d !== -1; d = nextDigit(text, d + 1, to)) {
    const t = d > from && text.charCodeAt(d - 1) === 0x28 ? d - 1 : d;
    if (t <= pos || !isPyWs(text.charCodeAt(t - 1))) continue;
    let s = t - 1;
    while (s > pos && isPyWs(text.charCodeAt(s - 1))) s--;
    const end = phoneTail(text, t, to);
    if (end > 0) {
      out.push({ start: s, end, groupStart: t, groupEnd: end });
      pos = end;
      // The regex search resumed at `end`.
      d = end - 1;
    }
  }
  return out;
}

function phoneTail(text: string, i: number, to: number): number {
  if (i < to && text.charCodeAt(i) === 0x28) i++;
  i = digits(text, i, 3, to);
  if (i < 0) return -1;
  if (i < to && text.charCodeAt(i) === 0x29) i++;
  while (i < to && isSep(text.charCodeAt(i))) i++;
  i = digits(text, i, 3, to);
  if (i < 0) return -1;
  if (i < to && isSep(text.charCodeAt(i))) i++;
  return digits(text, i, 4, to);
}

/**
 * Dolma's IP regex verbatim: ASCII digits only, and every attempt is at most 15 characters long,
 * so the backtracking engine stays linear; JS and Python agree on its leftmost-first semantics.
 */
const IP_RE = /(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)/g;

export function findIps(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  if (!text.includes('.')) return out;
  const re = new RegExp(IP_RE.source, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push({ start: m.index, end: m.index + m[0].length, groupStart: m.index, groupEnd: m.index + m[0].length });
  }
  return out;
}
