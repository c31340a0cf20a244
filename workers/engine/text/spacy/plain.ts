// The tokenizer's fast path, its data: unit classes that show when no rule touches a chunk, hashes of special cases.
import { markUnits } from './affixes.js';

/** Unit class bits (see markUnits). */
export const PLAIN = 1;
export const INNER = 2;
export const OPEN = 4;
export const CLOSE = 8;
export const DOT_AFTER = 16;
/** Whitespace: the whole class, no other bit. */
export const SPACE = 32;
export const ALPHA = 64;

/** Python `str.isspace()` units (all 29 such characters are in the BMP). */
const SPACES = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];

/** Class bits of every UTF-16 unit. Surrogates have none: astral characters (icons among them) go the general way. */
export const UNIT_CLASS = new Uint8Array(0x10000).fill(PLAIN | INNER);
markUnits(UNIT_CLASS, { plain: PLAIN, inner: INNER, open: OPEN, close: CLOSE, dotAfter: DOT_AFTER, alpha: ALPHA });
UNIT_CLASS.fill(0, 0xd800, 0xe000);
for (const c of SPACES) UNIT_CLASS[c] = SPACE;
UNIT_CLASS.fill(SPACE, 0x2000, 0x200b);

/**
 * The chunk hash of s[lo, hi): h = (h × 31 + unit) | 0 per unit, exact in doubles (|h × 31 + unit| < 2^37). Any
 * hash does: a hit only sends a chunk the general way, or is checked. Hot loops write the step out, as a call costs
 * more than the step in unoptimized code.
 */
export function hashRange(s: string, lo: number, hi: number): number {
  let h = 0;
  for (let i = lo; i < hi; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}

/** A hashRange value and its string's length, mixed; never 0. */
export const hashFinish = (h: number, len: number): number => Math.imul(h ^ len, 0x9e3779b1) | 1;

/** Open-addressing set of the hashes of some strings: `mayHave` is true for each of them (and rarely for others). */
export class HashFilter {
  /** hashFinish values by open addressing, 0 empty (read by native/spacy.c too). */
  readonly slots: Int32Array;
  private readonly mask: number;

  constructor(keys: Iterable<string>) {
    const list = [...keys];
    let size = 16;
    while (size < list.length * 4) size *= 2;
    this.slots = new Int32Array(size);
    this.mask = size - 1;
    for (const k of list) {
      const f = hashFinish(hashRange(k, 0, k.length), k.length);
      let slot = f & this.mask;
      while (this.slots[slot] !== 0 && this.slots[slot] !== f) slot = (slot + 1) & this.mask;
      this.slots[slot] = f;
    }
  }

  /** Whether a string of `len` units whose hashRange is `h` may be one of the keys. */
  mayHave(h: number, len: number): boolean {
    const f = hashFinish(h, len);
    for (let slot = f & this.mask; ; slot = (slot + 1) & this.mask) {
      const v = this.slots[slot];
      if (v === f) return true;
      if (v === 0) return false;
    }
  }
}
