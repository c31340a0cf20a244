// Python `re` escapes and character classes (sre_parse's rules), each written for both JS `u` RegExp and RE2 syntax.
import { AssayError } from '../../../errors.js';
import { PY_WS_CHARS } from '../../../text/python.js';

/** Something that consumes exactly one code point, in JS and in RE2 syntax. */
export interface Atom {
  js: string;
  re2: string;
}
type Bad = (what: string) => AssayError;
type Escape = { atom: Atom; length: number } | { assert: 'A' | 'Z' | 'b' | 'B'; length: number } | { backref: number; length: number };

export const unsupported = (what: string, field: string): AssayError => new AssayError('CONFIG', `Python regex feature not supported: ${what}`, { field });

/** Python's `\w` set (str.isalnum() or "_"), as a class body valid in both engines. */
export const PY_WORD = '\\p{L}\\p{N}_';
/** Python's `\s` set (str.isspace()), as JS and RE2 class bodies. */
export const PY_SPACE: Atom = { js: PY_WS_CHARS, re2: PY_WS_CHARS.replace(/\\[xu]([0-9a-f]{2,4})/g, '\\x{$1}') };

const both = (s: string): Atom => ({ js: s, re2: s });
const CLASS_ESCAPES: Record<string, Atom> = { d: both('\\p{Nd}'), D: both('\\P{Nd}'), w: both(PY_WORD), s: PY_SPACE };
const OUTSIDE: Record<string, Atom> = {
  d: both('\\p{Nd}'),
  D: both('\\P{Nd}'),
  w: both(`[${PY_WORD}]`),
  W: both(`[^${PY_WORD}]`),
  s: { js: `[${PY_SPACE.js}]`, re2: `[${PY_SPACE.re2}]` },
  S: { js: `[^${PY_SPACE.js}]`, re2: `[^${PY_SPACE.re2}]` },
};
const CONTROL: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };
const isOct = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '7';

/** A code point written so neither engine reads it as syntax (letters, digits, `_`, space and non-ASCII stay plain). */
export function literal(cp: number): Atom {
  const plain = (cp < 0x80 && /[A-Za-z0-9_ ]/.test(String.fromCharCode(cp))) || (cp > 0x7f && (cp < 0xd800 || cp > 0xdfff));
  const hex = cp.toString(16);
  return plain ? both(String.fromCodePoint(cp)) : { js: `\\u{${hex}}`, re2: `\\x{${hex}}` };
}

/** `\a \f \n \r \t \v`, `\xhh`, `\uhhhh`, `\Uhhhhhhhh`, `\0oo` at i: the code point and the length, or null. */
function codePointEscape(src: string, i: number, bad: Bad): { cp: number; length: number } | null {
  const x = src[i + 1] as string;
  if (x in CONTROL) return { cp: CONTROL[x] as number, length: 2 };
  const digits = HEX_DIGITS[x];
  if (digits !== undefined) {
    const hex = src.slice(i + 2, i + 2 + digits);
    if (!new RegExp(`^[0-9a-fA-F]{${digits}}$`).test(hex)) throw bad(`incomplete escape \\${x}${hex}`);
    const cp = parseInt(hex, 16);
    if (cp > 0x10ffff) throw bad(`bad escape \\${x}${hex}`);
    return { cp, length: 2 + digits };
  }
  if (x === '0') {
    let len = 2;
    while (len < 4 && isOct(src[i + len])) len++;
    return { cp: parseInt(src.slice(i + 1, i + len), 8), length: len };
  }
  return null;
}

/** A code point after a backslash that has no special meaning (Python refuses unknown ASCII letters). */
function plainEscape(src: string, i: number, field: string, bad: Bad): { cp: number; length: number } {
  const x = src[i + 1];
  if (x === undefined) throw bad('bad escape (end of pattern)');
  if (x === 'N') throw unsupported('named characters \\N{...}', field);
  if (/[A-Za-z]/.test(x)) throw bad(`bad escape \\${x}`);
  const cp = src.codePointAt(i + 1) as number;
  return { cp, length: cp > 0xffff ? 3 : 2 };
}

/** An escape outside a class at i: an atom, an assertion or a group reference. */
export function parseEscape(src: string, i: number, field: string, bad: Bad): Escape {
  const x = src[i + 1] ?? '';
  const cls = OUTSIDE[x];
  if (cls) return { atom: cls, length: 2 };
  if (x === 'b' || x === 'B' || x === 'A' || x === 'Z') return { assert: x, length: 2 };
  const cp = codePointEscape(src, i, bad);
  if (cp) return { atom: literal(cp.cp), length: cp.length };
  if (x >= '1' && x <= '9') {
    // sre_parse: three octal digits are an octal escape, otherwise one or two digits are a group number.
    if (isOct(x) && isOct(src[i + 2]) && isOct(src[i + 3])) {
      const value = parseInt(src.slice(i + 1, i + 4), 8);
      if (value > 0o377) throw bad(`octal escape value \\${src.slice(i + 1, i + 4)} outside of range 0-0o377`);
      return { atom: literal(value), length: 4 };
    }
    const two = src[i + 2] !== undefined && /\d/.test(src[i + 2] as string);
    return { backref: Number(src.slice(i + 1, i + (two ? 3 : 2))), length: two ? 3 : 2 };
  }
  const p = plainEscape(src, i, field, bad);
  return { atom: literal(p.cp), length: p.length };
}

/** One class member at j: a code point or a class body (`\d`, `\w`…), and the index after it. */
function classItem(src: string, j: number, field: string, bad: Bad): { cp?: number; body?: Atom; end: number } {
  if (src[j] !== '\\') {
    const cp = src.codePointAt(j) as number;
    return { cp, end: j + (cp > 0xffff ? 2 : 1) };
  }
  const x = src[j + 1] ?? '';
  const body = CLASS_ESCAPES[x];
  if (body) return { body, end: j + 2 };
  if (x === 'W' || x === 'S') throw unsupported(`\\${x} inside a character class`, field);
  if (x === 'b') return { cp: 8, end: j + 2 };
  const cp = codePointEscape(src, j, bad);
  if (cp) return { cp: cp.cp, end: j + cp.length };
  if (isOct(x)) {
    let len = 2;
    while (len < 4 && isOct(src[j + len])) len++;
    const value = parseInt(src.slice(j + 1, j + len), 8);
    if (value > 0o377) throw bad(`octal escape value \\${src.slice(j + 1, j + len)} outside of range 0-0o377`);
    return { cp: value, end: j + len };
  }
  if (/\d/.test(x)) throw bad(`bad escape \\${x}`);
  const p = plainEscape(src, j, field, bad);
  return { cp: p.cp, end: j + p.length };
}

/** The class `[...]` opened at i, and the index after its `]`. */
export function parseClass(src: string, i: number, field: string, bad: Bad): { atom: Atom; end: number } {
  let j = i + 1;
  const negated = src[j] === '^';
  if (negated) j++;
  const first = j;
  let js = '';
  let re2 = '';
  for (;;) {
    if (j >= src.length) throw bad(`unterminated character set at position ${i}`);
    if (src[j] === ']' && j > first) break;
    const lo = classItem(src, j, field, bad);
    j = lo.end;
    const isRange = src[j] === '-' && j + 1 < src.length && src[j + 1] !== ']';
    if (lo.body) {
      if (isRange) throw bad(`bad character range at position ${j}`);
      js += lo.body.js;
      re2 += lo.body.re2;
      continue;
    }
    const a = literal(lo.cp as number);
    if (!isRange) {
      js += a.js;
      re2 += a.re2;
      continue;
    }
    const hi = classItem(src, j + 1, field, bad);
    if (hi.cp === undefined || hi.cp < (lo.cp as number)) throw bad(`bad character range at position ${j}`);
    const b = literal(hi.cp);
    js += `${a.js}-${b.js}`;
    re2 += `${a.re2}-${b.re2}`;
    j = hi.end;
  }
  const neg = negated ? '^' : '';
  return { atom: { js: `[${neg}${js}]`, re2: `[${neg}${re2}]` }, end: j + 1 };
}
