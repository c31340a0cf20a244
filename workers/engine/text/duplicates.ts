// Gopher's `find_duplicates`, shared by DataTrove's Gopher repetition filter and its line/paragraph stats.
import { nativeAddon } from '../native-addon.js';
import { cpLength, cpLengthOf } from './python.js';

/** How many elements repeat an earlier one, and their total length in code points. */
export function findDuplicates(items: readonly string[]): { elements: number; chars: number } {
  const seen = new Set<string>();
  let elements = 0;
  let chars = 0;
  for (const x of items) {
    if (seen.has(x)) {
      elements++;
      chars += cpLength(x);
    } else seen.add(x);
  }
  return { elements, chars };
}

/**
 * A set of ranges of one text, compared by their characters: `find_duplicates` over pieces of a text without a
 * string per piece. Its arrays are kept from text to text.
 */
export class RangeSet {
  private text = '';
  private hash = new Int32Array(64);
  private from = new Int32Array(64);
  private to = new Int32Array(64);
  private stamp = new Int32Array(64);
  private gen = 0;
  private mask = 63;
  private size = 0;

  /** Empties the set for ranges of `text`. */
  reset(text: string): this {
    this.text = text;
    this.size = 0;
    if (++this.gen === 0x7fffffff) {
      this.stamp.fill(0);
      this.gen = 1;
    }
    return this;
  }

  /** Adds text[a, b); true when an equal range was there already (then nothing is added). */
  add(a: number, b: number): boolean {
    const t = this.text;
    let h = b - a;
    for (let i = a; i < b; i++) h = (Math.imul(h, 0x01000193) + t.charCodeAt(i)) | 0;
    let slot = Math.imul(h ^ (h >>> 16), 0x85ebca6b) & this.mask;
    for (; this.stamp[slot] === this.gen; slot = (slot + 1) & this.mask) {
      if (this.hash[slot] === h && sameRange(t, this.from[slot] as number, this.to[slot] as number, a, b)) return true;
    }
    this.put(slot, h, a, b);
    if (++this.size * 2 > this.mask) this.grow();
    return false;
  }

  private put(slot: number, h: number, a: number, b: number): void {
    this.stamp[slot] = this.gen;
    this.hash[slot] = h;
    this.from[slot] = a;
    this.to[slot] = b;
  }

  /** Twice the slots, every entry moved over (entries are distinct, so no comparison is needed). */
  private grow(): void {
    const { hash, from, to, stamp, gen } = this;
    const cap = stamp.length * 2;
    this.hash = new Int32Array(cap);
    this.from = new Int32Array(cap);
    this.to = new Int32Array(cap);
    this.stamp = new Int32Array(cap);
    this.mask = cap - 1;
    for (let i = 0; i < stamp.length; i++) {
      if (stamp[i] !== gen) continue;
      const h = hash[i] as number;
      let slot = Math.imul(h ^ (h >>> 16), 0x85ebca6b) & this.mask;
      while (this.stamp[slot] === gen) slot = (slot + 1) & this.mask;
      this.put(slot, h, from[i] as number, to[i] as number);
    }
  }
}

function sameRange(t: string, a: number, b: number, c: number, d: number): boolean {
  if (b - a !== d - c) return false;
  for (let i = 0; i < b - a; i++) if (t.charCodeAt(a + i) !== t.charCodeAt(c + i)) return false;
  return true;
}

/** Ranges of one text (a, b pairs) collected for duplicatesOf; the buffer is kept from text to text. */
export class RangeList {
  buf = new Int32Array(256);
  count = 0;

  reset(): this {
    this.count = 0;
    // A huge text's buffer is not kept for the short ones after it.
    if (this.buf.length > 1 << 20) this.buf = new Int32Array(256);
    return this;
  }

  push(a: number, b: number): void {
    const k = 2 * this.count++;
    if (k + 2 > this.buf.length) {
      const grown = new Int32Array(this.buf.length * 2);
      grown.set(this.buf);
      this.buf = grown;
    }
    this.buf[k] = a;
    this.buf[k + 1] = b;
  }
}

const fallback = new RangeSet();
const counts = new Float64Array(2);

/**
 * `find_duplicates` over ranges of `text`: how many repeat an earlier range and their code points in all. The addon
 * does it in one call where it is built (hashing every unit of a FineWeb pass's lines and paragraphs in JavaScript took
 * ≈ 3 % of the pass); RangeSet otherwise.
 */
export function duplicatesOf(text: string, list: RangeList): { elements: number; chars: number } {
  const addon = nativeAddon();
  if (addon !== null) {
    addon.rangeDuplicates(text, list.buf, list.count, counts);
    return { elements: counts[0] as number, chars: counts[1] as number };
  }
  return duplicatesInJs(text, list);
}

/** duplicatesOf without the addon (and what its tests compare the addon with). */
export function duplicatesInJs(text: string, list: RangeList): { elements: number; chars: number } {
  const set = fallback.reset(text);
  const { buf } = list;
  let elements = 0;
  let chars = 0;
  for (let k = 0; k < 2 * list.count; k += 2) {
    const a = buf[k] as number;
    const b = buf[k + 1] as number;
    if (set.add(a, b)) {
      elements++;
      chars += cpLengthOf(text, a, b);
    }
  }
  return { elements, chars };
}
