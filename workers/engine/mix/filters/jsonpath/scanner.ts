// Character-level reading for the JSONPath parser: positions, limits, quoted strings, numbers.

import { FilterCompileError } from '../types.js';

/** Longest accepted expression, in UTF-8 bytes: rules are one-liners; anything bigger is abuse. */
export const MAX_EXPR_BYTES = 64 * 1024;
/** Deepest nesting of filters, parentheses, `!` and array literals; keeps parser recursion shallow. */
export const MAX_NESTING = 128;

/** A cursor over one expression; every error it raises names the character offset it refers to. */
export class Scanner {
  pos = 0;
  private depth = 0;

  constructor(readonly src: string) {}

  fail(message: string, at: number = this.pos): never {
    throw new FilterCompileError(this.src, `${message} at offset ${at}${excerpt(this.src, at)}`);
  }

  get done(): boolean {
    return this.pos >= this.src.length;
  }

  /** The character at `pos + ahead`, or '' past the end. */
  peek(ahead = 0): string {
    return this.src.charAt(this.pos + ahead);
  }

  startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  /** Consume `text` if it comes next. */
  eat(text: string): boolean {
    if (!this.src.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }

  expect(text: string, what = `'${text}'`): void {
    this.skipSpace();
    if (!this.eat(text)) this.fail(`expected ${what}${this.done ? ' but the expression ended' : ''}`);
  }

  skipSpace(): void {
    let c = this.src.charCodeAt(this.pos);
    while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = this.src.charCodeAt(++this.pos);
  }

  /** Enter a nested construct; pair with `leave()`. Bounds recursion for hostile input. */
  enter(at: number): void {
    if (++this.depth > MAX_NESTING) this.fail(`nesting deeper than ${MAX_NESTING} levels`, at);
  }

  leave(): void {
    this.depth--;
  }

  /**
   * A 'single' or "double" quoted string; the cursor is on the quote. Escapes are JSON's (plus
   * `\'`). In `raw` mode — regex literals — only an escaped quote is unescaped and every other
   * backslash is kept, so `\d` or `\b` keep their regex meaning (jsonpath-rust, too, hands the
   * regex text to the regex engine unprocessed).
   */
  readString(raw = false): string {
    const start = this.pos;
    const quote = this.src.charAt(this.pos++);
    let out = '';
    let run = this.pos;
    for (;;) {
      if (this.done) this.fail('unterminated string', start);
      const c = this.src.charAt(this.pos);
      if (c === quote) {
        out += this.src.slice(run, this.pos++);
        return out;
      }
      if (c !== '\\') {
        this.pos++;
        continue;
      }
      out += this.src.slice(run, this.pos);
      if (raw) {
        const next = this.src.charAt(this.pos + 1);
        out += next === quote ? quote : `\\${next}`;
        this.pos += 2;
      } else {
        out += this.readEscape();
      }
      run = this.pos;
    }
  }

  private readEscape(): string {
    const at = this.pos;
    const c = this.src.charAt(this.pos + 1);
    this.pos += 2;
    const simple = ESCAPES[c];
    if (simple !== undefined) return simple;
    if (c === 'u') {
      const hex = this.src.slice(this.pos, this.pos + 4);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('\\u must be followed by 4 hex digits', at);
      this.pos += 4;
      return String.fromCharCode(parseInt(hex, 16));
    }
    return this.fail(`unknown escape '\\${c}'`, at);
  }

  /** A JSON-style number (`-12`, `0.5`, `1e-3`), or null when none starts here. */
  readNumber(): number | null {
    const m = NUMBER.exec(this.src.slice(this.pos, this.pos + 400));
    if (m === null) return null;
    const value = Number(m[0]);
    if (!Number.isFinite(value)) this.fail(`number out of range: ${m[0]}`);
    this.pos += m[0].length;
    return value;
  }

  /** A signed integer without leading zeros (indexes and slice bounds), or null when none starts here. */
  readInteger(): number | null {
    const start = this.pos;
    const m = INTEGER.exec(this.src.slice(this.pos, this.pos + 40));
    if (m === null) return null;
    const value = Number(m[0]);
    if (!Number.isSafeInteger(value)) this.fail(`integer out of range: ${m[0]}`, start);
    this.pos += m[0].length;
    if (/[0-9.eE]/.test(this.peek())) this.fail('expected an integer without leading zeros or fraction', start);
    return value;
  }
}

const ESCAPES: Readonly<Record<string, string>> = Object.assign(Object.create(null) as Record<string, string>, {
  '"': '"',
  "'": "'",
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
});

const NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/;
const INTEGER = /^-?(?:0|[1-9][0-9]*)/;

/** Two lines showing where in the expression the error is, clipped around long expressions. */
function excerpt(src: string, at: number): string {
  const from = Math.max(0, at - 40);
  const to = Math.min(src.length, at + 40);
  const shown = src.slice(from, to).replace(/[\r\n\t]/g, ' ');
  const lead = from > 0 ? '…' : '';
  return `\n  ${lead}${shown}${to < src.length ? '…' : ''}\n  ${' '.repeat(lead.length + at - from)}^`;
}

