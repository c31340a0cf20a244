// DataTrove `simplify_text` (HEAD, default TextNormConfig) that also keeps, per output character, the range of the original text it came from.
import { PUNCTUATION } from '../text/charsets.js';
import { PY_WS, PY_WS_CHARS } from '../text/python.js';

/** The simplified text; `from[i]`..`to[i]` (UTF-16, end exclusive) is where its i-th code unit came from in the original. */
export interface Tracked {
  text: string;
  from: Int32Array;
  to: Int32Array;
}

const NUMBERS = /\p{Nd}+(?:[.,،٫⎖⎗⎘]\p{Nd}+)?/gu;
const PUNCT_RE = new RegExp(`[${[...PUNCTUATION].map((c) => `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`).join('')}]`, 'gu');
const WS_RUN = new RegExp(`[${PY_WS_CHARS}]+`, 'g');
const MN = /\p{Mn}/gu;
// eslint-disable-next-line no-control-regex -- the ASCII range starts at NUL
const NON_ASCII = /[^\x00-\x7f]/;

/** ASCII classes for the one-pass path: 1 = becomes a space (punctuation or Python whitespace), 2 = digit. */
const ASCII = new Uint8Array(128);
for (const c of PUNCTUATION) if (c.charCodeAt(0) < 128) ASCII[c.charCodeAt(0)] = 1;
for (const c of [9, 10, 11, 12, 13, 28, 29, 30, 31, 32]) ASCII[c] = 1;
for (let c = 48; c < 58; c++) ASCII[c] = 2;

/**
 * The string `simplifyText(text)` returns (tested against it), with origins. The origin arrays may be scratch space:
 * they are valid until the next call. ASCII text takes one pass (most of a web corpus); otherwise only the words
 * holding a non-ASCII character run the upstream stages one by one (every stage is local to a whitespace-separated
 * word, so words can be simplified apart), the rest still takes the one pass.
 */
export function simplifyTracked(text: string): Tracked {
  return NON_ASCII.test(text) ? mixed(text) : ascii(text);
}

/** Python whitespace (str.split's set), as a table: the highest is U+3000. */
const PY_WS_TABLE = new Uint8Array(0x3001);
for (let c = 0; c <= 0x3000; c++) if (PY_WS.test(String.fromCharCode(c))) PY_WS_TABLE[c] = 1;
const isWs = (c: number): boolean => c <= 0x3000 && PY_WS_TABLE[c] === 1;

/**
 * Splits at Python whitespace (linear scan): ASCII stretches go to `ascii`, each word with a non-ASCII character to
 * `general`; the pieces are joined by one space, as whitespace normalisation would leave them.
 * (Upstream a word of nothing but combining marks leaves a double space when its marks are stripped; here one space.
 * The words are the same.)
 */
function mixed(text: string): Tracked {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  const add = (t: Tracked, off: number): void => {
    if (t.text.length === 0) return;
    if (parts.length > 0) {
      parts.push(' ');
      from.push((t.from[0] as number) + off);
      to.push((t.from[0] as number) + off);
    }
    parts.push(t.text);
    for (let i = 0; i < t.text.length; i++) {
      from.push((t.from[i] as number) + off);
      to.push((t.to[i] as number) + off);
    }
  };
  let asciiFrom = 0;
  for (let i = 0; i < text.length; ) {
    if (isWs(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let j = i;
    let wide = false;
    for (; j < text.length && !isWs(text.charCodeAt(j)); j++) if (text.charCodeAt(j) > 0x7f) wide = true;
    if (wide) {
      if (i > asciiFrom) add(ascii(text.slice(asciiFrom, i)), asciiFrom);
      add(general(text.slice(i, j)), i);
      asciiFrom = j;
    }
    i = j;
  }
  if (text.length > asciiFrom) add(ascii(text.slice(asciiFrom)), asciiFrom);
  return { text: parts.join(''), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** Scratch reused by every ASCII call (the tagger's hot path): grown as needed, so most documents allocate nothing. */
let outBuf = new Uint8Array(1 << 16);
let fromBuf = new Int32Array(1 << 16);
let toBuf = new Int32Array(1 << 16);

function ascii(text: string): Tracked {
  const n = text.length;
  if (outBuf.length < n) [outBuf, fromBuf, toBuf] = [new Uint8Array(n * 2), new Int32Array(n * 2), new Int32Array(n * 2)];
  const out = outBuf;
  const from = fromBuf;
  const to = toBuf;
  let len = 0;
  let space = false; // a run of spaces is pending: written before the next character, never at the ends
  for (let i = 0; i < n; ) {
    let c = text.charCodeAt(i);
    // Past 0x7f only non-ASCII whitespace arrives here (mixed() sends words with other characters to general()).
    const k = c < 128 ? ASCII[c] : 1;
    if (k === 1) {
      space = true;
      i++;
      continue;
    }
    let j = i + 1;
    if (k === 2) {
      while (ASCII[text.charCodeAt(j)] === 2) j++;
      const sep = text.charCodeAt(j);
      if ((sep === 46 || sep === 44) && ASCII[text.charCodeAt(j + 1)] === 2) for (j += 2; ASCII[text.charCodeAt(j)] === 2; ) j++;
      c = 48;
    } else if (c >= 65 && c <= 90) c += 32;
    if (space && len > 0) {
      from[len] = i;
      to[len] = i;
      out[len++] = 32;
    }
    space = false;
    from[len] = i;
    to[len] = j;
    out[len++] = c;
    i = j;
  }
  return { text: Buffer.from(out.buffer, 0, len).toString('latin1'), from: from.subarray(0, len), to: to.subarray(0, len) };
}

function general(text: string): Tracked {
  let t: Tracked = { text, from: new Int32Array(text.length), to: new Int32Array(text.length) };
  for (let i = 0; i < text.length; i++) [t.from[i], t.to[i]] = [i, i + 1];
  t = perCodePoint(t, (c) => c.toLowerCase(), text.toLowerCase());
  t = rewrite(t, NUMBERS, () => '0');
  t = rewrite(t, PUNCT_RE, () => ' ');
  t = rewrite(t, WS_RUN, () => ' ');
  t = perCodePoint(t, (c) => c.normalize('NFD').replace(MN, ''), null);
  return trimSpaces(t);
}

/** Applies `f` to each code point; `whole` (f over the whole text) wins where it differs but has the same length (Greek final sigma). */
function perCodePoint(t: Tracked, f: (c: string) => string, whole: string | null): Tracked {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < t.text.length; ) {
    const cp = t.text.codePointAt(i) as number;
    const w = cp > 0xffff ? 2 : 1;
    const r = f(t.text.slice(i, i + w));
    const a = t.from[i] as number;
    const b = t.to[i + w - 1] as number;
    for (let k = 0; k < r.length; k++) [from[from.length], to[to.length]] = [a, b];
    parts.push(r);
    i += w;
  }
  const joined = parts.join('');
  return { text: whole !== null && whole.length === joined.length ? whole : joined, from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** Replaces every match of `re` (global) by `by(match)`; the replacement's characters come from the whole match. */
function rewrite(t: Tracked, re: RegExp, by: (m: string) => string): Tracked {
  const parts: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  let last = 0;
  const keep = (a: number, b: number): void => {
    parts.push(t.text.slice(a, b));
    for (let i = a; i < b; i++) [from[from.length], to[to.length]] = [t.from[i] as number, t.to[i] as number];
  };
  for (const m of t.text.matchAll(re)) {
    keep(last, m.index);
    const r = by(m[0]);
    const end = m.index + m[0].length;
    for (let k = 0; k < r.length; k++) [from[from.length], to[to.length]] = [t.from[m.index] as number, t.to[end - 1] as number];
    parts.push(r);
    last = end;
  }
  keep(last, t.text.length);
  return { text: parts.join(''), from: Int32Array.from(from), to: Int32Array.from(to) };
}

/** Python `strip()` after whitespace normalisation: only plain spaces can remain at either end. */
function trimSpaces(t: Tracked): Tracked {
  let a = 0;
  let b = t.text.length;
  while (a < b && t.text.charCodeAt(a) === 32) a++;
  while (b > a && t.text.charCodeAt(b - 1) === 32) b--;
  return { text: t.text.slice(a, b), from: t.from.subarray(a, b), to: t.to.subarray(a, b) };
}
