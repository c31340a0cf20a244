// The tokenizer's fast path: unit classes that show when no rule touches a chunk, and the chunks it splits itself.
import { markUnits } from './affixes.js';
import type { OffsetBuffer } from './offsets.js';

/** Unit class bits (see markUnits). */
export const PLAIN = 1;
export const INNER = 2;
export const OPEN = 4;
export const CLOSE = 8;
export const DOT_AFTER = 16;
/** Whitespace: the whole class, no other bit. */
export const SPACE = 32;

/** Python `str.isspace()` units (all 29 such characters are in the BMP). */
const SPACES = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];

/** Class bits of every UTF-16 unit. Surrogates have none: astral characters (icons among them) go the general way. */
export const UNIT_CLASS = new Uint8Array(0x10000).fill(PLAIN | INNER);
markUnits(UNIT_CLASS, { plain: PLAIN, inner: INNER, open: OPEN, close: CLOSE, dotAfter: DOT_AFTER });
UNIT_CLASS.fill(0, 0xd800, 0xe000);
for (const c of SPACES) UNIT_CLASS[c] = SPACE;
UNIT_CLASS.fill(SPACE, 0x2000, 0x200b);

/**
 * One step of the chunk hash (any hash does: a hit only sends a chunk the general way, or is checked). Exact in
 * doubles: |h × 31 + unit| < 2^37. Hot loops write it out, as a call costs more than the step in unoptimized code.
 */
export const hashStep = (h: number, unit: number): number => (h * 31 + unit) | 0;

/** The hashStep fold of s[lo, hi). */
export function hashRange(s: string, lo: number, hi: number): number {
  let h = 0;
  for (let i = lo; i < hi; i++) h = (h * 31 + s.charCodeAt(i)) | 0;
  return h;
}
/** The hashStep fold of a string and its length, mixed; never 0. */
export const hashFinish = (h: number, len: number): number => Math.imul(h ^ len, 0x9e3779b1) | 1;

/** Open-addressing set of the hashes of some strings: `mayHave` is true for each of them (and rarely for others). */
export class HashFilter {
  private readonly slots: Int32Array;
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

  /** Whether a string of `len` units whose hashStep fold is `h` may be one of the keys. */
  mayHave(h: number, len: number): boolean {
    const f = hashFinish(h, len);
    for (let slot = f & this.mask; ; slot = (slot + 1) & this.mask) {
      const v = this.slots[slot];
      if (v === f) return true;
      if (v === 0) return false;
    }
  }
}

/** Whether text[i] (i > 0) is a one-unit suffix wherever the chunk starts. */
function closes(text: string, i: number, cls: Uint8Array): boolean {
  const u = text.charCodeAt(i);
  return (cls[u]! & CLOSE) !== 0 || (u === 0x2e && (cls[text.charCodeAt(i - 1)]! & DOT_AFTER) !== 0);
}

/** Whether text[, end) ends with `'s` or `’s` (either case): a suffix. */
function isApostropheS(text: string, end: number): boolean {
  const last = text.charCodeAt(end - 1);
  const before = text.charCodeAt(end - 2);
  return (last === 0x73 || last === 0x53) && (before === 0x27 || before === 0x2019);
}

/**
 * Tokens of the chunk starting at `a` when it is `[open] core [close [close]]` then whitespace or the end: `core`
 * PLAIN at both ends and INNER between, not ending in `'s`. spaCy strips the affixes one a turn from both ends, the
 * core has none left, and neither an infix nor a URL rule can match it, so its tokens are those parts unless some
 * run of them is a special case (`cannot`, `Mr.`, `):`) — each run is checked against the special-case hashes, the
 * single units by `cls`, where the caller has cleared OPEN and CLOSE on units that are special cases. Pushes them and
 * returns the chunk's end, or returns -1 having pushed nothing.
 */
export function plainChunk(text: string, a: number, cls: Uint8Array, specials: HashFilter, out: OffsetBuffer): number {
  const n = text.length;
  let i = a;
  let open = 0;
  if ((cls[text.charCodeAt(i)]! & OPEN) !== 0) {
    open = 1;
    i++;
  }
  if (i === n || (cls[text.charCodeAt(i)]! & PLAIN) === 0) return -1;
  // The core's hash, as of its last PLAIN unit so far.
  let h = 0;
  let hRun = 0;
  let end = i;
  for (; i < n; i++) {
    const u = text.charCodeAt(i);
    const k = cls[u]!;
    if ((k & INNER) === 0) break;
    hRun = (hRun * 31 + u) | 0;
    if ((k & PLAIN) !== 0) {
      h = hRun;
      end = i + 1;
    }
  }
  const core = end - a - open;
  if (core >= 2 && isApostropheS(text, end)) return -1;
  i = end;
  let c1 = 0;
  let c2 = 0;
  if (i < n && closes(text, i, cls)) {
    c1 = text.charCodeAt(i++);
    if (i < n && closes(text, i, cls)) c2 = text.charCodeAt(i++);
  }
  if (i < n && cls[text.charCodeAt(i)] !== SPACE) return -1;
  // The hash with the opening unit: few chunks have one.
  const ho = open ? hashRange(text, a, end) : 0;
  if (specials.mayHave(h, core) || (open && specials.mayHave(ho, core + 1))) return -1;
  if (c1) {
    const h1 = hashStep(h, c1);
    const ho1 = hashStep(ho, c1);
    if (specials.mayHave(h1, core + 1) || (open && specials.mayHave(ho1, core + 2))) return -1;
    if (c2) {
      if (specials.mayHave(hashStep(h1, c2), core + 2) || specials.mayHave(hashStep(c1, c2), 2)) return -1;
      if (open && specials.mayHave(hashStep(ho1, c2), core + 3)) return -1;
    }
  }
  if (open) out.push(a, a + 1);
  out.push(a + open, end);
  if (c1) out.push(end, end + 1);
  if (c2) out.push(end + 1, end + 2);
  return i;
}
