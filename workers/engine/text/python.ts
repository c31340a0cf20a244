// Python string semantics that Dolma's and DataTrove's taggers rely on (datatrove-spec §0), for exact ports.

/** Python `str.isspace()` characters (29), which `strip()`, `split()` and `re` `\s` use. */
export const PY_WS_CHARS = '\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
export const PY_WS = new RegExp(`[${PY_WS_CHARS}]`);
const PY_WS_RUN = new RegExp(`[${PY_WS_CHARS}]+`, 'g');
const PY_STRIP = new RegExp(`^[${PY_WS_CHARS}]+|[${PY_WS_CHARS}]+$`, 'g');
const PY_LSTRIP = new RegExp(`^[${PY_WS_CHARS}]+`);
const PY_RSTRIP = new RegExp(`[${PY_WS_CHARS}]+$`);

/** `s.strip()` with no arguments. */
export const pyStrip = (s: string): string => s.replace(PY_STRIP, '');
export const pyLstrip = (s: string): string => s.replace(PY_LSTRIP, '');
export const pyRstrip = (s: string): string => s.replace(PY_RSTRIP, '');

/** `s.split()` with no arguments: runs of whitespace, no empty strings. */
export function pySplit(s: string): string[] {
  return s.split(PY_WS_RUN).filter((w) => w.length > 0);
}

// eslint-disable-next-line no-control-regex -- Python splitlines() treats these control characters as line breaks
const LINE_BREAK = /\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]/g;

/** `s.splitlines()`: Python's line boundaries; a trailing terminator adds no empty line. */
export function pySplitlines(s: string): string[] {
  if (s.length === 0) return [];
  const parts = s.split(LINE_BREAK);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

/** `len(s)`: Unicode code points (a lone surrogate counts as one, as in Python). */
export function cpLength(s: string): number {
  // The regex engine finds the first high surrogate (usually none) several times faster than a charCodeAt loop.
  const first = s.search(HIGH_SURROGATE);
  return first === -1 ? s.length : first + cpLengthOf(s, first, s.length);
}

/** `len(s[a:b])`: code points of a range (a lone surrogate counts as one). */
export function cpLengthOf(s: string, a: number, b: number): number {
  let n = b - a;
  for (let i = a; i < b - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * Python 3 `round(x, n)`: correctly rounded from the exact binary value, ties to even.
 * `toPrecision` of the exact decimal expansion decides ties; Math.round would round 0.5 up.
 */
export function pyRound(x: number, digits = 0): number {
  if (!Number.isFinite(x)) return x;
  const scaled = x * 10 ** digits;
  if (!Number.isFinite(scaled)) return x;
  // Candidate by ordinary rounding, then fix the two cases where it differs from exact round-half-even.
  const exact = exactDecimal(x);
  const r = roundDecimalString(exact, digits);
  return Number(r);
}

/** The exact decimal value of a double (every double is a finite binary fraction). */
function exactDecimal(x: number): string {
  if (Number.isInteger(x)) return BigInt(x).toString();
  const neg = x < 0;
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, Math.abs(x));
  const bits = buf.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let e2: number;
  if (exp === 0) e2 = -1074;
  else {
    mant |= 1n << 52n;
    e2 = exp - 1075;
  }
  // value = mant * 2^e2 with e2 < 0  →  mant * 5^-e2 / 10^-e2
  const k = -e2;
  const digits = (mant * 5n ** BigInt(k)).toString().padStart(k + 1, '0');
  const int = digits.slice(0, digits.length - k);
  const frac = digits.slice(digits.length - k).replace(/0+$/, '');
  return (neg ? '-' : '') + int + (frac ? '.' + frac : '');
}

function roundDecimalString(s: string, digits: number): string {
  const neg = s.startsWith('-');
  const body = neg ? s.slice(1) : s;
  const [int = '0', frac = ''] = body.split('.');
  if (digits < 0) {
    const scale = 10n ** BigInt(-digits);
    const n = BigInt(int);
    const q = n / scale;
    const rem = n % scale;
    const half = scale / 2n;
    const hasFrac = frac.length > 0;
    let rounded = q;
    if (rem > half || (rem === half && hasFrac)) rounded = q + 1n;
    else if (rem === half && !hasFrac && q % 2n === 1n) rounded = q + 1n;
    return (neg ? '-' : '') + (rounded * scale).toString();
  }
  if (frac.length <= digits) return s;
  const keep = BigInt(int + frac.slice(0, digits));
  const next = frac.charCodeAt(digits) - 48;
  const rest = frac.slice(digits + 1);
  let up = false;
  if (next > 5) up = true;
  else if (next === 5) up = /[1-9]/.test(rest) || keep % 2n === 1n;
  const v = up ? keep + 1n : keep;
  const str = v.toString().padStart(digits + 1, '0');
  const out = digits === 0 ? str : `${str.slice(0, str.length - digits)}.${str.slice(str.length - digits)}`;
  return (neg && v !== 0n ? '-' : '') + out;
}

/** Python `repr(float)`: shortest round-trip digits, always with `.0` or an exponent (`4.0`, `1e-05`). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const abs = Math.abs(x);
  const exp = Math.floor(Math.log10(abs));
  if (exp < -4 || exp >= 16) {
    const [m = '', e = '0'] = x.toExponential().split('e');
    const en = Number(e);
    return `${m}e${en < 0 ? '-' : '+'}${String(Math.abs(en)).padStart(2, '0')}`;
  }
  const s = String(x);
  return s.includes('.') || s.includes('e') ? s : `${s}.0`;
}

const ALPHA = /\p{L}/u;
const DIGIT = /\p{Nd}/u;
const UPPER = /\p{Uppercase}/u;

/** Per code point `str.isalpha()` / `isdigit()` / `isupper()` (single character). */
export const isAlpha = (c: string): boolean => ALPHA.test(c);
export const isDigitChar = (c: string): boolean => DIGIT.test(c);
export const isUpperChar = (c: string): boolean => UPPER.test(c);
