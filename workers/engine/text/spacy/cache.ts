// spaCy's per-chunk cache: the token lengths of chunks the general path split, looked up without slicing the text.
import { ownCopy } from '../own-copy.js';
import { hashFinish, hashRange } from './plain.js';

// Module-local copies: under tsx an imported binding is a getter call on every use.
const range = hashRange;
const finish = hashFinish;

const SLOTS = 1 << 17;
/** Emptied when this full, so a probe always ends at an empty slot soon. */
const MAX_ENTRIES = SLOTS >> 1;
/** Longer chunks are rare (URLs, paths) and seldom repeat. */
const MAX_KEY = 64;

/** Open addressing on the chunk's hash; an entry matches when its key is the very text of the chunk. */
export class ChunkCache {
  /** hashFinish of each entry's key, 0 for an empty slot. */
  private readonly marks = new Int32Array(SLOTS);
  private readonly keys: string[] = new Array<string>(SLOTS).fill('');
  private readonly values: (readonly number[])[] = new Array<readonly number[]>(SLOTS).fill([]);
  private entries = 0;

  /** Cached token lengths of the chunk s[lo, hi), if any. */
  get(s: string, lo: number, hi: number): readonly number[] | undefined {
    if (hi - lo > MAX_KEY) return undefined;
    const slot = this.find(markOf(s, lo, hi), s, lo, hi);
    return this.marks[slot] === 0 ? undefined : this.values[slot];
  }

  set(s: string, lo: number, hi: number, lengths: readonly number[]): void {
    if (hi - lo > MAX_KEY) return;
    if (this.entries >= MAX_ENTRIES) {
      this.marks.fill(0);
      this.entries = 0;
    }
    const mark = markOf(s, lo, hi);
    const slot = this.find(mark, s, lo, hi);
    if (this.marks[slot] === 0) this.entries++;
    this.marks[slot] = mark;
    // A copy: a slice would keep the whole document alive while the cache holds it (text/own-copy.ts).
    this.keys[slot] = ownCopy(s, lo, hi);
    this.values[slot] = lengths;
  }

  /** The slot holding s[lo, hi), or the empty slot it would take. */
  private find(mark: number, s: string, lo: number, hi: number): number {
    const mask = SLOTS - 1;
    for (let slot = mark & mask; ; slot = (slot + 1) & mask) {
      const m = this.marks[slot];
      if (m === 0) return slot;
      if (m === mark) {
        const key = this.keys[slot] as string;
        if (key.length === hi - lo && s.startsWith(key, lo)) return slot;
      }
    }
  }
}

const markOf = (s: string, lo: number, hi: number): number => finish(range(s, lo, hi), hi - lo);
