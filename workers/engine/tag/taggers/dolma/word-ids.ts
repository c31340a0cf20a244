// Dense ids of a document's words read in place: an open-addressing table keyed by offsets into the text itself.

/**
 * Word → id (first-occurrence order) for one text, without cutting a substring per word: a word is found by its hash
 * (computed by the caller while scanning it) and compared unit by unit with the first occurrence, in the text.
 */
export class WordIds {
  /** Per slot: hash, start of the first occurrence, length, id + 1 (0 = empty). */
  private slots: Int32Array;
  private mask: number;
  size = 0;

  constructor(
    private readonly text: string,
    expected: number,
  ) {
    let cap = 64;
    while (cap < expected * 2) cap *= 2;
    this.slots = new Int32Array(cap * 4);
    this.mask = cap - 1;
  }

  /** Id of `text[start, end)` (hash `h`); a new word gets the next id. `isNew` tells which happened. */
  id(h: number, start: number, end: number): number {
    const { slots, text } = this;
    const len = end - start;
    for (let slot = (Math.imul(h, 0x9e3779b1) >>> 7) & this.mask; ; slot = (slot + 1) & this.mask) {
      const k = slot << 2;
      const v = slots[k + 3] as number;
      if (v === 0) {
        slots[k] = h;
        slots[k + 1] = start;
        slots[k + 2] = len;
        slots[k + 3] = ++this.size;
        this.isNew = true;
        if (this.size * 2 > this.mask) this.grow();
        return this.size - 1;
      }
      if (slots[k] === h && slots[k + 2] === len && sameAt(text, slots[k + 1] as number, start, len)) {
        this.isNew = false;
        return v - 1;
      }
    }
  }

  isNew = false;

  /** Doubling keeps the table at most half full. */
  private grow(): void {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array((this.mask + 1) * 4);
    for (let k = 0; k < old.length; k += 4) {
      if (old[k + 3] === 0) continue;
      let slot = (Math.imul(old[k] as number, 0x9e3779b1) >>> 7) & this.mask;
      while (this.slots[(slot << 2) + 3] !== 0) slot = (slot + 1) & this.mask;
      this.slots.set(old.subarray(k, k + 4), slot << 2);
    }
  }
}

function sameAt(text: string, a: number, b: number, len: number): boolean {
  for (let i = 0; i < len; i++) if (text.charCodeAt(a + i) !== text.charCodeAt(b + i)) return false;
  return true;
}
