// Byte-level JSON primitives over one UTF-8 line: exact answers for what they accept, FALLBACK (to JSON.parse) otherwise.
import { measureText } from './text.js';

/**
 * Thrown (one shared instance, no stack) when a line is not in the shape the scanner reads exactly;
 * the caller then hands the line to JSON.parse, which decides — including whether it is malformed.
 */
export const FALLBACK: { readonly fallback: true } = Object.freeze({ fallback: true });

const Q = 0x22; // "
const BS = 0x5c; // backslash
/** Deeper nesting than this is left to JSON.parse and the mixer's depth check (MAX_DOC_DEPTH = 127 levels from the line's root). */
const MAX_DEPTH = 100;
/** What a string's raw bytes may not hold to be their own value: escapes and (invalid) control characters. */
// eslint-disable-next-line no-control-regex -- the control characters are exactly what JSON forbids raw
const NOT_PLAIN = /[\u0000-\u001f\\]/;

/** 10^0 … 10^22: every one exactly representable, which makes the fast number path exact. */
const POW10 = Array.from({ length: 23 }, (_, i) => Number(`1e${i}`));

/**
 * A cursor over `buf[pos, end)`, one JSON line. The line must be valid UTF-8 (the caller checks)
 * and `buf[end]` must exist and be `\n`: every token stops at it (a control byte, not a digit, not
 * a literal's letter), so only whitespace runs and searches check `end`. Strings are found with
 * indexOf (memchr) and checked four bytes at a time: a JavaScript loop over every byte, or a
 * decode plus a regular expression, measured 2–3× slower on the long texts that dominate.
 */
export class ByteScanner {
  buf: Buffer = Buffer.alloc(1, 0x0a);
  pos = 0;
  end = 0;
  /** The caller knows the line is ASCII only (no multi-byte characters). */
  ascii = false;
  /** Set by `text()`: measureText (text.ts) of the decoded string. */
  bytes = 0;
  chars = 0;
  trimmed = 0;
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);

  reset(buf: Buffer, start: number, end: number, ascii: boolean): void {
    if (buf !== this.buf) {
      this.buf = buf;
      this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    }
    this.pos = start;
    this.end = end;
    this.ascii = ascii;
  }

  ws(): void {
    const buf = this.buf;
    let p = this.pos;
    while (p < this.end) {
      const b = buf[p] as number;
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) break;
      p++;
    }
    this.pos = p;
  }

  peek(): number {
    return this.buf[this.pos] as number;
  }

  expect(b: number): void {
    if (this.buf[this.pos] !== b) throw FALLBACK;
    this.pos++;
  }

  /** The string at `pos` (its opening quote), decoded exactly as JSON.parse would; `pos` after it. */
  string(): string {
    const p = this.pos + 1;
    const q = this.buf.indexOf(Q, p);
    if (q < 0 || q > this.end) throw FALLBACK;
    if (!this.plain(p, q)) return this.parsed(p);
    this.pos = q + 1;
    return this.buf.toString(this.ascii ? 'latin1' : 'utf8', p, q);
  }

  /**
   * Whether `buf[p, q)` holds no backslash and no control byte, so that the bytes are the string
   * itself: four bytes at a time with the classic SWAR tests (a byte below 0x20: (x − 0x20202020)
   * & ~x & 0x80808080; a byte equal to 0x5C: the same zero test on x ^ 0x5C5C5C5C), which are exact
   * about whether such a byte exists for any byte values.
   */
  private plain(p: number, q: number): boolean {
    const view = this.view;
    let bad = 0;
    for (; p + 4 <= q; p += 4) {
      const x = view.getInt32(p, true);
      const y = x ^ 0x5c5c5c5c;
      bad |= ((x - 0x20202020) & ~x) | ((y - 0x01010101) & ~y);
    }
    const buf = this.buf;
    for (; p < q; p++) {
      const b = buf[p] as number;
      if (b < 0x20 || b === BS) return false;
    }
    return (bad & 0x80808080) === 0;
  }

  /** A string with escapes (or control characters, which JSON.parse refuses): JSON.parse decides. */
  private parsed(p: number): string {
    const buf = this.buf;
    let q = buf.indexOf(Q, p);
    for (;;) {
      if (q < 0 || q > this.end) throw FALLBACK;
      let k = q;
      while (buf[k - 1] === BS) k--;
      if ((q - k) % 2 === 0) break;
      q = buf.indexOf(Q, q + 1);
    }
    let s: unknown;
    try {
      s = JSON.parse(buf.toString('utf8', p - 1, q + 1));
    } catch {
      throw FALLBACK;
    }
    this.pos = q + 1;
    return s as string;
  }

  /**
   * Whether the string at `pos` is exactly `key` (whose UTF-8 is `bytes`, `words` its 4-byte
   * little-endian words; a key holding `"`, `\` or a control character never matches). On a match
   * `pos` moves past the closing quote; otherwise it stays.
   */
  isKey(bytes: Uint8Array, words: Int32Array): boolean {
    const s = this.pos + 1;
    const n = bytes.length;
    const buf = this.buf;
    if (s + n >= this.end || buf[s + n] !== Q) return false;
    const view = this.view;
    let i = 0;
    for (; i < words.length; i++) if (view.getInt32(s + 4 * i, true) !== words[i]) return false;
    for (let k = 4 * i; k < n; k++) if (buf[s + k] !== bytes[k]) return false;
    this.pos = s + n + 1;
    return true;
  }

  /** Whether the string at `pos` is exactly the string `id` (an ASCII comparison, or a decoded one). */
  isString(id: string): boolean {
    const buf = this.buf;
    const s = this.pos + 1;
    const n = id.length;
    if (s + n < this.end && buf[s + n] === Q) {
      let k = 0;
      for (; k < n; k++) {
        const c = id.charCodeAt(k);
        if (c < 0x20 || c >= 0x80 || c === Q || c === BS || buf[s + k] !== c) break;
      }
      if (k === n) {
        this.pos = s + n + 1;
        return true;
      }
    }
    return this.string() === id;
  }

  /**
   * The string at `pos`, measured as measureText measures its decoded value: UTF-8 bytes, code
   * points, bytes between the first and last characters that are not Rust whitespace.
   */
  text(): void {
    const buf = this.buf;
    const p = this.pos + 1;
    const q = buf.indexOf(Q, p);
    if (q < 0 || q > this.end) throw FALLBACK;
    if (this.ascii) {
      if (!this.plain(p, q)) return this.measure(this.parsed(p));
      // ASCII without control characters: the only whitespace is the space.
      let a = p;
      while (a < q && buf[a] === 0x20) a++;
      let b = q;
      while (b > a && buf[b - 1] === 0x20) b--;
      this.bytes = this.chars = q - p;
      this.trimmed = b - a;
      this.pos = q + 1;
      return;
    }
    const s = buf.toString('utf8', p, q);
    if (NOT_PLAIN.test(s)) return this.measure(this.parsed(p));
    this.measure(s);
    this.pos = q + 1;
  }

  private measure(s: string): void {
    const m = measureText(s);
    this.bytes = m.bytes;
    this.chars = m.chars;
    this.trimmed = m.trimmed;
  }

  /**
   * A number at `pos` in JSON's grammar, as JSON.parse converts it: up to 15 significant digits and
   * a decimal exponent within ±22 are computed exactly (one correctly rounded multiply or divide of
   * exact doubles); anything else goes through Number(), which rounds the same text the same way.
   */
  number(): number {
    const buf = this.buf;
    let p = this.pos;
    const start = p;
    const neg = buf[p] === 0x2d;
    if (neg) p++;
    let b = buf[p] as number;
    let m = 0;
    let digits = 0;
    let scale = 0;
    if (b === 0x30) b = buf[++p] as number;
    else if (b >= 0x31 && b <= 0x39) {
      do {
        m = m * 10 + (b - 0x30);
        digits++;
        b = buf[++p] as number;
      } while (b >= 0x30 && b <= 0x39);
    } else throw FALLBACK;
    if (b === 0x2e) {
      b = buf[++p] as number;
      if (!(b >= 0x30 && b <= 0x39)) throw FALLBACK;
      do {
        m = m * 10 + (b - 0x30);
        if (m !== 0) digits++;
        scale--;
        b = buf[++p] as number;
      } while (b >= 0x30 && b <= 0x39);
    }
    if (b === 0x65 || b === 0x45) {
      b = buf[++p] as number;
      const eneg = b === 0x2d;
      if (eneg || b === 0x2b) b = buf[++p] as number;
      if (!(b >= 0x30 && b <= 0x39)) throw FALLBACK;
      let e = 0;
      do {
        if (e < 1e6) e = e * 10 + (b - 0x30);
        b = buf[++p] as number;
      } while (b >= 0x30 && b <= 0x39);
      scale += eneg ? -e : e;
    }
    this.pos = p;
    if (digits > 15 || scale > 22 || scale < -22) return Number(buf.toString('latin1', start, p));
    const v = scale >= 0 ? m * (POW10[scale] as number) : m / (POW10[-scale] as number);
    return neg ? -v : v;
  }

  /** Skips (and validates) any value at `pos`. */
  skip(depth = 0): void {
    const b = this.buf[this.pos] as number;
    if (b === Q) {
      this.string();
      return;
    }
    if (b === 0x2d || (b >= 0x30 && b <= 0x39)) {
      this.number();
      return;
    }
    if (b === 0x5b || b === 0x7b) {
      if (depth >= MAX_DEPTH) throw FALLBACK;
      const close = b + 2; // ] and }
      this.pos++;
      this.ws();
      if (this.peek() === close) {
        this.pos++;
        return;
      }
      for (;;) {
        if (b === 0x7b) {
          if (this.peek() !== Q) throw FALLBACK;
          this.string();
          this.ws();
          this.expect(0x3a);
          this.ws();
        }
        this.skip(depth + 1);
        this.ws();
        const c = this.peek();
        this.pos++;
        if (c === close) return;
        if (c !== 0x2c) throw FALLBACK;
        this.ws();
      }
    }
    this.literal();
  }

  /** `true`, `false` or `null` at `pos`. */
  literal(): 'true' | 'false' | 'null' {
    const buf = this.buf;
    const p = this.pos;
    const b = buf[p];
    if (b === 0x74 && buf[p + 1] === 0x72 && buf[p + 2] === 0x75 && buf[p + 3] === 0x65) {
      this.pos += 4;
      return 'true';
    }
    if (b === 0x66 && buf[p + 1] === 0x61 && buf[p + 2] === 0x6c && buf[p + 3] === 0x73 && buf[p + 4] === 0x65) {
      this.pos += 5;
      return 'false';
    }
    if (b === 0x6e && buf[p + 1] === 0x75 && buf[p + 2] === 0x6c && buf[p + 3] === 0x6c) {
      this.pos += 4;
      return 'null';
    }
    throw FALLBACK;
  }
}

/** A key's 4-byte little-endian words, for `isKey`. */
export function keyWords(bytes: Uint8Array): Int32Array {
  const words = new Int32Array(bytes.length >> 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < words.length; i++) words[i] = view.getInt32(4 * i, true);
  return words;
}

/**
 * Whether raw bytes equal to the key's UTF-8 can only spell the key: nothing JSON must escape, and
 * no lone surrogate (Buffer.from writes U+FFFD for it, whose raw bytes spell another key).
 */
export function plainKey(key: string): boolean {
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    if (c < 0x20 || c === Q || c === BS) return false;
    if (c >= 0xd800 && c <= 0xdfff) {
      const d = key.charCodeAt(i + 1);
      if (c > 0xdbff || !(d >= 0xdc00 && d <= 0xdfff)) return false;
      i++;
    }
  }
  return true;
}
