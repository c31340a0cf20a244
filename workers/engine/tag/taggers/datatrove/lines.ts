// Python `str.splitlines()` with offsets, so line-level edits can be reported as spans of the original text.
import { cpLengthOf } from '../../../text/python.js';
import { viewOf } from '../../view.js';
import { asParsed } from '../dolma/warm-up.js';

/** Whether a UTF-16 unit ends a line for `str.splitlines()`: \n \r \x0b \x0c \x1c \x1d \x1e \x85 \u2028 \u2029. */
export function isLineBreak(c: number): boolean {
  return c <= 0x1e ? (c >= 0x0a && c <= 0x0d) || c >= 0x1c : c === 0x85 || c === 0x2028 || c === 0x2029;
}

let scratch: Int32Array = new Int32Array(768);
/** Whether splitlineOffsets has run its warm-up (prime, below). */
let primed = false;

/** `text.splitlines()` of a document, shared by the taggers of a pass through its view. */
export function documentLines(text: string): Int32Array {
  return viewOf(text).get('datatrove:splitlines', splitlineOffsets);
}

/** The line breaks of `str.splitlines()` other than \n. */
// eslint-disable-next-line no-control-regex -- the control characters are the point: splitlines() breaks at them
const RARE_BREAK = /[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]/;

/**
 * `text.splitlines()` as offsets: line k is [out[3k], out[3k+1]) with its terminator up to out[3k+2] (a trailing
 * terminator adds no empty line; "" has none). A text whose only breaks are \n (most) is cut with indexOf, which
 * V8 runs as a native search: half the time of the scan, which handles the rest (no callback per line).
 */
export function splitlineOffsets(text: string): Int32Array {
  if (!primed) prime();
  return RARE_BREAK.test(text) ? scanLines(text) : newlineOffsets(text);
}

function newlineOffsets(text: string): Int32Array {
  const n = text.length;
  let k = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', start)) {
    k = put(k, start, i, i + 1);
    start = i + 1;
  }
  if (start < n) k = put(k, start, n, n);
  return scratch.slice(0, k);
}

function scanLines(text: string): Int32Array {
  const n = text.length;
  let k = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    // Printable ASCII, most of any text, is never a break: settled before the full test.
    if (c > 0x1e && c < 0x85) continue;
    if (!isLineBreak(c)) continue;
    const next = c === 0x0d && i + 1 < n && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
    k = put(k, start, i, next);
    start = next;
    i = next - 1;
  }
  if (start < n) k = put(k, start, n, n);
  return scratch.slice(0, k);
}

/** Writes line (start, end, next) at scratch[k], growing it; returns k + 3. */
function put(k: number, start: number, end: number, next: number): number {
  if (k + 3 > scratch.length) scratch = grow(scratch);
  scratch[k] = start;
  scratch[k + 1] = end;
  scratch[k + 2] = next;
  return k + 3;
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(a.length * 2);
  b.set(a);
  return b;
}

/**
 * Runs every path once while the function is cold: a long first document would otherwise have it compiled on the
 * stack (OSR) before the code after the loop ever ran, and Node 20 re-entered that code, and deoptimized leaving
 * it, on every later long document. Several calls: V8 allocates a function's feedback only after a few. On the
 * first call rather than when the module loads (the registry loads it for every command); each call returns a
 * copy, so the caller's result is untouched.
 */
function prime(): void {
  primed = true;
  const text = asParsed('a\nb\r\nc\rd\u2028e\n'.repeat(300) + 'f');
  const plain = asParsed('a\nbc\n\n'.repeat(300) + 'f');
  for (let k = 0; k < 12; k++) {
    splitlineOffsets(text);
    splitlineOffsets(plain);
  }
}

/** Calls `f(start, end, next)` for each line exactly as `text.splitlines()` cuts them (the pass's shared lines). */
export function forEachLine(text: string, f: (start: number, end: number, next: number) => void): void {
  const o = documentLines(text);
  for (let k = 0; k < o.length; k += 3) f(o[k] as number, o[k + 1] as number, o[k + 2] as number);
}

/** Python whitespace (`str.isspace`) for one UTF-16 unit. */
export function isPyWs(c: number): boolean {
  if (c < 0x80) return (c >= 9 && c <= 13) || (c >= 0x1c && c <= 0x20);
  return c === 0x85 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

/** `[a, b)` narrowed like `s[a:b].strip()`. */
export function stripRange(text: string, a: number, b: number): [number, number] {
  while (a < b && isPyWs(text.charCodeAt(a))) a++;
  while (b > a && isPyWs(text.charCodeAt(b - 1))) b--;
  return [a, b];
}

/** `s.strip()` found by index (the strip regex tries its trailing-whitespace branch at every position of a long text). */
export function stripText(s: string): string {
  const [a, b] = stripRange(s, 0, s.length);
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** `s.strip() == ""`. */
export function isBlankText(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isPyWs(s.charCodeAt(i))) return false;
  return true;
}

/** `len(s.split())` over [a, b) and whether some word has more than `maxLen` code points (maxLen < 0: never). */
export function wordStats(text: string, a: number, b: number, maxLen: number): { count: number; tooLong: boolean } {
  let count = 0;
  let tooLong = false;
  let i = a;
  while (i < b) {
    const c = text.charCodeAt(i);
    // Printable ASCII, most of any text, is never whitespace: settled before the full test.
    if (!(c > 0x20 && c < 0x7f) && isPyWs(c)) {
      i++;
      continue;
    }
    count++;
    const start = i;
    for (i++; i < b; i++) {
      const d = text.charCodeAt(i);
      if (!(d > 0x20 && d < 0x7f) && isPyWs(d)) break;
    }
    // A word has no more code points than UTF-16 units: only a word longer than maxLen in units needs counting.
    if (maxLen >= 0 && i - start > maxLen && cpLengthOf(text, start, i) > maxLen) tooLong = true;
  }
  return { count, tooLong };
}
