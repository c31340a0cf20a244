// Dense ids of a text's words (or lines) read in place: an open-addressing table keyed by offsets into the text itself.

/**
 * Word → id (first-occurrence order) for one text, without cutting a substring per word: a word is found by its hash
 * (computed by the caller while scanning it) and compared unit by unit with the first occurrence, in the text.
 * `reset` starts the next text in the same table, cleared only over the part in use, so a pass over many
 * documents allocates a table only when one outgrows every earlier one.
 */
export class WordIds {
  /** Per slot: hash, start of the first occurrence, length, id + 1 (0 = empty). */
  private slots = new Int32Array(0);
  private mask = 0;
  private text = '';
  size = 0;
  isNew = false;

  constructor(text = '', expected = 0) {
    this.reset(text, expected);
  }

  /** Empties the table for `text`, sized for about `expected` distinct keys. */
  reset(text: string, expected: number): this {
    let cap = 64;
    while (cap < expected * 2) cap *= 2;
    if (this.slots.length < cap * 4 || oversized(this.slots.length, cap * 4)) this.slots = new Int32Array(cap * 4);
    else this.slots.fill(0, 0, cap * 4);
    this.mask = cap - 1;
    this.text = text;
    this.size = 0;
    return this;
  }

  /** Id of `text[start, end)` (hash `h`); a new word gets the next id. `isNew` tells which happened. */
  id(h: number, start: number, end: number): number {
    const { slots, text } = this;
    const len = end - start;
    for (let slot = (Math.imul(h, 0x9e3779b1) >>> 7) & this.mask; ; slot = (slot + 1) & this.mask) {
      const k = slot << 2;
      const v = slots[k + 3]!;
      if (v === 0) {
        slots[k] = h;
        slots[k + 1] = start;
        slots[k + 2] = len;
        slots[k + 3] = ++this.size;
        this.isNew = true;
        if (this.size * 2 > this.mask) this.grow();
        return this.size - 1;
      }
      if (slots[k] === h && slots[k + 2] === len && sameAt(text, slots[k + 1]!, start, len)) {
        this.isNew = false;
        return v - 1;
      }
    }
  }

  /** Doubling keeps the table at most half full. */
  private grow(): void {
    const old = this.slots;
    const used = (this.mask + 1) * 4;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array((this.mask + 1) * 4);
    for (let k = 0; k < used; k += 4) {
      if (old[k + 3] === 0) continue;
      let slot = (Math.imul(old[k]!, 0x9e3779b1) >>> 7) & this.mask;
      while (this.slots[(slot << 2) + 3] !== 0) slot = (slot + 1) & this.mask;
      this.slots.set(old.subarray(k, k + 4), slot << 2);
    }
  }
}

function sameAt(text: string, a: number, b: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}

/** Scratch of more entries than this is let go once a document needs less than an eighth of it (memory after one huge document). */
const KEEP = 1 << 16;

/** Whether scratch of `length` entries is far larger than a document needing `n` should keep. */
export const oversized = (length: number, n: number): boolean => length > KEEP && length > n * 8;

/** `buf` if it holds `n` values, else a larger (or, past a huge document, smaller) replacement, contents not kept: scratch reused across documents. */
export function atLeast(buf: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  if (buf.length < n) return new Int32Array(Math.max(n, buf.length * 2));
  return oversized(buf.length, n) ? new Int32Array(n) : buf;
}
