// Attribute lines read by the C addon instead of JSON.parse: the members the rules read become values, the rest stay text for the output.
import type { NativeAddon } from '../native-addon.js';
import { stringifySorted } from './json.js';
import { readRecords, shapesOf } from './line-records.js';
import { sameKeys } from './sorted-view.js';

/** native/attrs.c's record layout. */
const HEAD = 4;
const MEMBER = 7;

/** The member names of an `attributes` object in line order; an attribute file's lines nearly always share one. */
interface Shape {
  keys: string[];
  /** Indices of the members the stream reads. */
  wanted: number[];
}

/**
 * One attribute file's batch of lines, read by `attrLines` (native/attrs.c). A line it reads is a compact JSON object
 * (no whitespace) with a string `id` and an `attributes` object, no escape in a name or the id, and no repeated or
 * `__proto__` name; any other line (and a line of another document's id) is left to JSON.parse, which also reports
 * what is wrong with it.
 */
export class AttributeFileReader {
  private out: Int32Array = new Int32Array(1 << 14);
  private nums = new Float64Array(1 << 12);
  private lines: readonly (string | null)[] = [];
  /** Per line: its shape, or null when JSON.parse must read it. */
  private shapeAt: (Shape | null)[] = [];
  private shapes: Shape[] = [];

  constructor(
    private readonly addon: NativeAddon,
    private readonly wanted: ReadonlySet<string>,
  ) {}

  /** Reads a batch's lines; later calls name them by index. */
  scan(lines: readonly (string | null)[]): void {
    this.out = readRecords(this.out, lines.length, (out) => this.addon.attrLines(lines, lines.length, out, this.nums), () => {
      this.nums = new Float64Array(2 * this.nums.length);
    });
    this.lines = lines;
    this.shapeAt = shapesOf(this.out, lines, (line, o) => this.shapeOf(line, o));
  }

  /** Whether line i was read, and is the line of the document with this id. */
  has(i: number, id: string): boolean {
    if (this.shapeAt[i] == null) return false;
    const o = this.out[i] as number;
    const a = this.out[o + 1] as number;
    return (this.out[o + 2] as number) - a === id.length && (this.lines[i] as string).startsWith(id, a);
  }

  /** The wanted members of line i into `into` (later files' values overwrite earlier ones, as Dolma merges them). */
  addWanted(i: number, into: Record<string, unknown>): void {
    const shape = this.shapeAt[i] as Shape;
    for (const m of shape.wanted) into[shape.keys[m] as string] = this.value(i, m);
  }

  /** Member m (in line order) of line i as stringifySorted writes its value: copied from the line when canonical. */
  text(i: number, m: number): string {
    const r = (this.out[i] as number) + HEAD + m * MEMBER;
    const end = this.out[r + 3] as number;
    return end >= 0 ? (this.lines[i] as string).slice(this.out[r + 2], end) : stringifySorted(this.value(i, m));
  }

  shape(i: number): Shape {
    return this.shapeAt[i] as Shape;
  }

  private value(i: number, m: number): unknown {
    const out = this.out;
    const r = (out[i] as number) + HEAD + m * MEMBER;
    if (out[r + 4] === 1) {
      const spans = new Array<number[]>(out[r + 6] as number);
      for (let k = 0, p = out[r + 5] as number; k < spans.length; k++, p += 3) spans[k] = [this.nums[p] as number, this.nums[p + 1] as number, this.nums[p + 2] as number];
      return spans;
    }
    return JSON.parse((this.lines[i] as string).slice(out[r + 2], Math.abs(out[r + 3] as number))) as unknown;
  }

  /** The shape of the line at record o (the same object for the same names, so merged orders are found again); null for a repeated name or `__proto__`. */
  private shapeOf(line: string, o: number): Shape | null {
    const count = this.out[o + 3] as number;
    const keys: string[] = [];
    for (let m = 0; m < count; m++) {
      const r = o + HEAD + m * MEMBER;
      keys.push(line.slice(this.out[r], this.out[r + 1]));
    }
    const found = this.shapes.find((s) => sameKeys(s.keys, keys));
    if (found) return found;
    // `__proto__` would set the prototype by assignment; JSON.parse makes it a member, so those lines go there.
    if (new Set(keys).size !== keys.length || keys.includes('__proto__')) return null;
    // Keys as property names (internalized): looked up for every document.
    const names = keys.map((key) => Object.keys({ [key]: 0 })[0] as string);
    const shape: Shape = { keys: names, wanted: [] };
    names.forEach((key, m) => this.wanted.has(key) && shape.wanted.push(m));
    if (this.shapes.length >= 8) this.shapes.pop();
    this.shapes.unshift(shape);
    return shape;
  }
}

/** Writes one document's merged attribute lines as stringifySorted writes the merged object: code-unit order, the last file's value for a repeated key. */
export class MergedAttributesWriter {
  private shapes: Shape[] = [];
  /** Per output member: its file, its member index there. */
  private from: number[] = [];
  /** Per output member: `"key":` with the comma before it. */
  private heads: string[] = [];

  text(files: readonly AttributeFileReader[], i: number): string {
    if (files.some((f, a) => f.shape(i) !== this.shapes[a])) this.plan(files, i);
    let out = '{';
    for (let k = 0; k < this.heads.length; k++) out += (this.heads[k] as string) + (files[this.from[2 * k] as number] as AttributeFileReader).text(i, this.from[2 * k + 1] as number);
    return out + '}';
  }

  private plan(files: readonly AttributeFileReader[], i: number): void {
    this.shapes = files.map((f) => f.shape(i));
    const last = new Map<string, [number, number]>();
    this.shapes.forEach((s, a) => s.keys.forEach((key, m) => last.set(key, [a, m])));
    // Code-unit order, as stringifySorted's.
    const keys = [...last.keys()].sort();
    this.from = keys.flatMap((key) => last.get(key) as [number, number]);
    this.heads = keys.map((key, k) => `${k === 0 ? '' : ','}"${key}":`);
  }
}
