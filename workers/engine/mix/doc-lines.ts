// Kept documents written from their own lines: the members the mixer did not change are copied as read when their text is what JSON.stringify writes.
import type { NativeAddon } from '../native-addon.js';
import { stringifySorted } from './json.js';
import { readRecords, shapesOf } from './line-records.js';
import { sameKeys } from './sorted-view.js';

/** native/attrs.c's document record: sameShape, members, then 4 ints per member. */
const HEAD = 2;
const MEMBER = 4;

/** A line's member names (in line order) and where each is. */
interface Shape {
  keys: string[];
  index: Map<string, number>;
}

/** Members the mixer changes: never copied from the line (`text` only when span replacement changed it). */
const CHANGED = new Set(['metadata', 'attributes']);

/**
 * stringifySorted for the mixer's kept documents, from their lines as read (`docLines`, native/attrs.c): a long
 * text's JSON.stringify costs ≈ 5 ns a character here, and most of a document's members go out unchanged.
 */
export class DocumentLineWriter {
  private out: Int32Array = new Int32Array(1 << 12);
  private lines: readonly string[] = [];
  private shapeAt: (Shape | null)[] = [];
  private shapes: Shape[] = [];
  private lastKeys: string[] = [];
  private sorted: string[] = [];
  private heads: string[] = [];

  constructor(private readonly addon: NativeAddon) {}

  /** Reads the lines of the documents about to be written; write() names them by index. */
  scan(lines: readonly string[]): void {
    this.out = readRecords(this.out, lines.length, (out) => this.addon.docLines(lines, lines.length, out));
    this.lines = lines;
    this.shapeAt = shapesOf(this.out, lines, (line, o) => this.shapeOf(line, o));
  }

  /**
   * stringifySorted(doc) for the document of line i, its `attributes` written as `attributes` when given (the
   * merged text of its attribute lines), its text from its value when `textChanged`.
   */
  write(i: number, doc: Record<string, unknown>, attributes: string | null, textChanged: boolean): string {
    const keys = Object.keys(doc);
    if (!sameKeys(keys, this.lastKeys)) {
      this.lastKeys = keys;
      this.sorted = keys.slice().sort();
      this.heads = this.sorted.map((k) => `${JSON.stringify(k)}:`);
    }
    const shape = this.shapeAt[i] ?? null;
    let out = '{';
    for (let k = 0; k < this.sorted.length; k++) {
      const key = this.sorted[k] as string;
      const v = doc[key];
      if (v === undefined) continue;
      let text: string;
      if (key === 'attributes' && attributes !== null) text = attributes;
      else if (shape === null || CHANGED.has(key) || (textChanged && key === 'text')) text = stringifySorted(v);
      else {
        const m = shape.index.get(key);
        text = m === undefined ? stringifySorted(v) : this.member(i, m, v);
      }
      out += (out.length === 1 ? '' : ',') + (this.heads[k] as string) + text;
    }
    return out + '}';
  }

  private member(i: number, m: number, value: unknown): string {
    const r = (this.out[i] as number) + HEAD + m * MEMBER;
    const end = this.out[r + 3] as number;
    return end >= 0 ? (this.lines[i] as string).slice(this.out[r + 2], end) : stringifySorted(value);
  }

  /** The line's shape; null for a repeated name (JSON.parse keeps the last value, the line both). */
  private shapeOf(line: string, o: number): Shape | null {
    const count = this.out[o + 1] as number;
    const keys: string[] = [];
    for (let m = 0; m < count; m++) keys.push(line.slice(this.out[o + HEAD + m * MEMBER], this.out[o + HEAD + m * MEMBER + 1]));
    const found = this.shapes.find((s) => sameKeys(s.keys, keys));
    if (found) return found;
    const index = new Map(keys.map((key, m) => [key, m]));
    if (index.size !== keys.length) return null;
    const shape = { keys, index };
    if (this.shapes.length >= 8) this.shapes.pop();
    this.shapes.unshift(shape);
    return shape;
  }
}
