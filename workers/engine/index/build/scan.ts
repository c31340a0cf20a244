// Reads document and attribute lines from bytes straight into the columns, as JSON.parse + ColumnSet.addObject would.
import type { Json } from '../../mix/filters/types.js';
import { T } from '../store/tags.js';
import { ByteScanner, FALLBACK, keyWords } from './bytes.js';
import type { Collector } from './collect.js';

const MAX_OFFSET = 2 ** 32 - 1;
const Q = 0x22;
const ID = Buffer.from('id');
const ID_WORDS = keyWords(ID);
const ATTRIBUTES = Buffer.from('attributes');
const ATTRIBUTES_WORDS = keyWords(ATTRIBUTES);

const isNumberStart = (b: number): boolean => b === 0x2d || (b >= 0x30 && b <= 0x39);

/** The document's own collectors the scanner treats specially (ColumnSet(DOC_DEPTH, ['text', 'id'])'s children). */
export interface DocCollectors {
  root: Collector;
  text: Collector;
  id: Collector;
  source: Collector;
}

/**
 * One line at a time: `begin`, then `doc` or `attributes`. Either throws FALLBACK (the caller
 * `undo`es what the attempt wrote and parses the line with JSON.parse) or has written exactly the
 * entries ColumnSet.addObject writes for the parsed line. Lines it refuses: duplicate keys (JSON.parse
 * keeps the last value), a non-string id or text, anything malformed.
 */
export class LineScanner extends ByteScanner {
  /** Of the last `doc`: its id, `text`'s tag (measures in bytes/chars/trimmed) and string source ('' if none). */
  id = '';
  textTag: number = T.ABSENT;
  source = '';
  private stamp = 0;
  private ord = 0;
  /** Collectors the current attempt reached: `touched[0, nTouched)`. */
  private readonly touched: Collector[] = [];
  private nTouched = 0;

  begin(buf: Buffer, start: number, end: number, ascii: boolean): void {
    this.reset(buf, start, end, ascii);
    this.stamp++;
    this.nTouched = 0;
  }

  /** Takes back every entry the failed attempt wrote. */
  undo(): void {
    for (let i = 0; i < this.nTouched; i++) (this.touched[i] as Collector).undo(this.ord);
    this.nTouched = 0;
  }

  doc(d: DocCollectors, ord: number): void {
    this.ord = ord;
    this.textTag = T.ABSENT;
    this.bytes = this.chars = this.trimmed = 0;
    this.source = '';
    let hasId = false;
    this.open();
    for (let i = 0; ; i++) {
      const c = this.member(d.root, i);
      if (c === d.text) {
        if (this.peek() !== Q) throw FALLBACK;
        this.text();
        c.push(ord, T.STR, -1, 0);
        this.textTag = T.STR;
      } else if (c === d.id) {
        if (this.peek() !== Q) throw FALLBACK;
        this.id = this.string();
        c.push(ord, T.STR, -1, 0);
        hasId = true;
      } else if (c === d.source && this.peek() === Q) {
        this.source = this.string();
        c.push(ord, T.STR, c.code(this.source, ord), 0);
      } else this.value(c, ord, 3);
      if (this.next()) break;
    }
    this.close();
    if (!hasId) throw FALLBACK;
  }

  /** An attribute record `{"id": …, "attributes": {…}, …}` whose id must be `id` (a string). */
  attributes(root: Collector, ord: number, id: Json | undefined): void {
    this.ord = ord;
    let hasId = false;
    let hasAttributes = false;
    this.open();
    for (;;) {
      if (this.peek() !== Q) throw FALLBACK;
      let isId = this.isKey(ID, ID_WORDS);
      let isAttributes = !isId && this.isKey(ATTRIBUTES, ATTRIBUTES_WORDS);
      if (!isId && !isAttributes) {
        const key = this.string();
        isId = key === 'id';
        isAttributes = key === 'attributes';
      }
      this.colon();
      if (isId) {
        if (hasId || typeof id !== 'string' || this.peek() !== Q || !this.isString(id)) throw FALLBACK;
        hasId = true;
      } else if (isAttributes) {
        if (hasAttributes || this.peek() !== 0x7b) throw FALLBACK;
        this.object(root, ord, 2);
        hasAttributes = true;
      } else this.skip();
      if (this.next()) break;
    }
    this.close();
    if (!hasId || !hasAttributes) throw FALLBACK;
  }

  /** `{` of a top-level object with at least one member. */
  private open(): void {
    this.ws();
    this.expect(0x7b);
    this.ws();
    if (this.peek() === 0x7d) throw FALLBACK;
  }

  /** Only whitespace may follow the top-level object. */
  private close(): void {
    this.ws();
    if (this.pos !== this.end) throw FALLBACK;
  }

  private colon(): void {
    this.ws();
    this.expect(0x3a);
    this.ws();
  }

  /** After a member or element: true at `close`, false after a comma. */
  private next(close = 0x7d): boolean {
    this.ws();
    const c = this.peek();
    this.pos++;
    if (c === close) return true;
    if (c !== 0x2c) throw FALLBACK;
    this.ws();
    return false;
  }

  /** The key at `pos` and its collector (the i-th member most likely repeats the last object's i-th key). */
  private member(parent: Collector, i: number): Collector {
    if (this.peek() !== Q) throw FALLBACK;
    let c = parent.seq[i];
    if (c === undefined || c.keyWords === null || !this.isKey(c.keyBytes, c.keyWords)) {
      c = parent.child(this.string());
      parent.seq[i] = c;
    }
    if (c.stamp === this.stamp) throw FALLBACK;
    c.stamp = this.stamp;
    this.touched[this.nTouched++] = c;
    this.colon();
    return c;
  }

  /** Members of the object at `pos` into `parent`'s children; `depth` as ColumnSet's walk counts it. */
  private object(parent: Collector, ord: number, depth: number): void {
    this.pos++;
    this.ws();
    if (this.peek() === 0x7d) {
      this.pos++;
      return;
    }
    for (let i = 0; ; i++) {
      this.value(this.member(parent, i), ord, depth);
      if (this.next()) return;
    }
  }

  /** One value into `c` (Collector.add's tag and number), then its members if it is an object and depth allows. */
  private value(c: Collector, ord: number, depth: number): void {
    const b = this.peek();
    if (b === Q) {
      const s = this.string();
      c.push(ord, T.STR, c.coded ? c.code(s, ord) : -1, 0);
    } else if (isNumberStart(b)) c.push(ord, T.NUM, this.number(), 0);
    else if (b === 0x5b) this.array(c, ord);
    else if (b === 0x7b) {
      c.push(ord, T.OBJ, 0, 0);
      if (depth > 1) this.object(c, ord, depth - 1);
      else this.skip();
    } else {
      const l = this.literal();
      c.push(ord, l === 'true' ? T.TRUE : l === 'false' ? T.FALSE : T.NULL, 0, 0);
    }
  }

  /** An array: EMPTY, SPANS (every element a regular `[start, end, score]`, kept) or ODDARR, with its length. */
  private array(c: Collector, ord: number): void {
    if (this.buf[this.pos + 1] === 0x5b && this.single(c, ord)) return;
    this.pos++;
    this.ws();
    if (this.peek() === 0x5d) {
      this.pos++;
      c.push(ord, T.EMPTY, 0, 0);
      return;
    }
    const mark = c.spanN;
    let spans = true;
    let count = 0;
    try {
      for (;;) {
        if (spans) {
          const at = this.pos;
          if (!this.span(c, ord)) {
            spans = false;
            c.rollback(mark);
            this.pos = at;
            this.skip(1);
          }
        } else this.skip(1);
        count++;
        if (this.next(0x5d)) break;
      }
    } catch (e) {
      // Spans appended before a failure belong to no entry: `undo` would not find them.
      c.rollback(mark);
      throw e;
    }
    if (spans) c.push(ord, T.SPANS, c.scores[mark] as number, count);
    else c.push(ord, T.ODDARR, 0, count);
  }

  /**
   * The common document-level value `[[start,end,score]]` written without whitespace, in one pass;
   * false (`pos` unchanged, nothing written) for anything else, which the general path then reads.
   */
  private single(c: Collector, ord: number): boolean {
    const buf = this.buf;
    const at = this.pos;
    this.pos = at + 2;
    if (isNumberStart(buf[this.pos] as number)) {
      const b = this.number();
      if (buf[this.pos] === 0x2c && isNumberStart(buf[this.pos + 1] as number)) {
        this.pos++;
        const e = this.number();
        if (buf[this.pos] === 0x2c && isNumberStart(buf[this.pos + 1] as number)) {
          this.pos++;
          const s = this.number();
          if (buf[this.pos] === 0x5d && buf[this.pos + 1] === 0x5d && b >= 0 && b <= MAX_OFFSET && e >= 0 && e <= MAX_OFFSET && Number.isInteger(b) && Number.isInteger(e)) {
            this.pos += 2;
            c.pushSpan(ord, b, e, s);
            c.push(ord, T.SPANS, s, 1);
            return true;
          }
        }
      }
    }
    this.pos = at;
    return false;
  }

  /** A regular span at `pos`, appended to `c`'s spans; false (with `pos` anywhere) for any other element. */
  private span(c: Collector, ord: number): boolean {
    if (this.peek() !== 0x5b) return false;
    this.pos++;
    this.ws();
    if (!isNumberStart(this.peek())) return false;
    const b = this.number();
    if (!this.comma()) return false;
    const e = this.number();
    if (!this.comma()) return false;
    const s = this.number();
    this.ws();
    if (this.peek() !== 0x5d) return false;
    this.pos++;
    if (!(b >= 0 && b <= MAX_OFFSET && e >= 0 && e <= MAX_OFFSET) || !Number.isInteger(b) || !Number.isInteger(e)) return false;
    c.pushSpan(ord, b, e, s);
    return true;
  }

  /** `,` then the start of a number. */
  private comma(): boolean {
    this.ws();
    if (this.peek() !== 0x2c) return false;
    this.pos++;
    this.ws();
    return isNumberStart(this.peek());
  }
}
