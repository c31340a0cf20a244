// spaCy's per-chunk cache: the token lengths of chunks the general path split, looked up without slicing the text.
import { ownCopy } from '../own-copy.js';
import { hashFinish, hashRange } from './plain.js';

// Module-local copies: under tsx an imported binding is a getter call on every use.
const range = hashRange;
const finish = hashFinish;

/** The table starts small and doubles while half full, up to MAX_SLOTS; then it is emptied when half full, so a
 * probe always ends at an empty slot soon. (Allocating the full table took ≈ 9 ms of every process's start-up.) Small
 * enough for the taggers' priming texts to grow it: a first growth during the run deoptimized the tokenizer. */
const FIRST_SLOTS = 1 << 5;
const MAX_SLOTS = 1 << 17;
/** Longer chunks are rare (URLs, paths) and seldom repeat. */
const MAX_KEY = 64;

/** Open addressing on the chunk's hash; an entry matches when its key is the very text of the chunk. */
export class ChunkCache {
  /** hashFinish of each entry's key, 0 for an empty slot. */
  private marks = new Int32Array(FIRST_SLOTS);
  private keys: string[] = new Array<string>(FIRST_SLOTS).fill('');
  private values: (readonly number[])[] = new Array<readonly number[]>(FIRST_SLOTS).fill([]);
  private entries = 0;

  /** Cached token lengths of the chunk s[lo, hi), if any. */
  get(s: string, lo: number, hi: number): readonly number[] | undefined {
    if (hi - lo > MAX_KEY) return undefined;
    const slot = this.find(markOf(s, lo, hi), s, lo, hi);
    return this.marks[slot] === 0 ? undefined : this.values[slot];
  }

  set(s: string, lo: number, hi: number, lengths: readonly number[]): void {
    if (hi - lo > MAX_KEY) return;
    if (this.entries >= this.marks.length >> 1) {
      if (this.marks.length < MAX_SLOTS) this.grow();
      else {
        this.marks.fill(0);
        this.entries = 0;
      }
    }
    const mark = markOf(s, lo, hi);
    const slot = this.find(mark, s, lo, hi);
    if (this.marks[slot] === 0) this.entries++;
    this.marks[slot] = mark;
    // A copy: a slice would keep the whole document alive while the cache holds it (text/own-copy.ts).
    this.keys[slot] = ownCopy(s, lo, hi);
    this.values[slot] = lengths;
  }

  /** Twice the slots, every entry moved over. */
  private grow(): void {
    const { marks, keys, values } = this;
    const size = marks.length * 2;
    this.marks = new Int32Array(size);
    this.keys = new Array<string>(size).fill('');
    this.values = new Array<readonly number[]>(size).fill([]);
    for (let i = 0; i < marks.length; i++) {
      const mark = marks[i] as number;
      if (mark === 0) continue;
      const key = keys[i] as string;
      // Keys are distinct, so this finds the empty slot the entry takes.
      const slot = this.find(mark, key, 0, key.length);
      this.marks[slot] = mark;
      this.keys[slot] = key;
      this.values[slot] = values[i] as readonly number[];
    }
  }

  /** The slot holding s[lo, hi), or the empty slot it would take. */
  private find(mark: number, s: string, lo: number, hi: number): number {
    const mask = this.marks.length - 1;
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
