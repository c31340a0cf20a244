// Whole-word membership over a text without slicing words out: a trie walked from each word start.
import { isPyWs } from './text.js';

/** `str.split()` whitespace among ASCII units, as a table (the scan's inner loops test every unit). */
const ASCII_WS = new Uint8Array(128);
for (let c = 0; c < 128; c++) ASCII_WS[c] = isPyWs(c) ? 1 : 0;
const isWs = (c: number): boolean => (c < 128 ? ASCII_WS[c] === 1 : isPyWs(c));

/**
 * Finds whitespace-delimited words (Python `str.split()`) of a text that belong to a fixed set.
 * Each word is walked in a trie and abandoned at its first character that leaves the trie, the rest
 * of it skipped, so a pass costs about one table read per character and allocates nothing.
 */
export class WordTrie {
  /** ASCII transitions of state s at [s * 128 + c] (-1: no word continues so); other units per state in a map. */
  private ascii = new Int32Array(128).fill(-1);
  private readonly other: Map<number, number>[] = [new Map()];
  private readonly tags: number[] = [0];

  /** Adds `word` (no whitespace) with a tag bit. */
  add(word: string, tag: number): void {
    let s = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      let t = this.next(s, c);
      if (t === -1) {
        t = this.tags.length;
        this.tags.push(0);
        this.other.push(new Map());
        if (this.ascii.length < this.tags.length * 128) {
          const grown = new Int32Array(this.ascii.length * 2).fill(-1);
          grown.set(this.ascii);
          this.ascii = grown;
        }
        if (c < 128) this.ascii[s * 128 + c] = t;
        else this.other[s]!.set(c, t);
      }
      s = t;
    }
    this.tags[s]! |= tag;
  }

  /** The tag of `word` as it is. */
  private tagOf(word: string): number {
    let s = 0;
    for (let i = 0; i < word.length && s !== -1; i++) s = this.next(s, word.charCodeAt(i));
    return s > 0 ? this.tags[s]! : 0;
  }

  private next(s: number, c: number): number {
    return c < 128 ? this.ascii[s * 128 + c]! : (this.other[s]!.get(c) ?? -1);
  }

  /** The tag of `text[start, end)` (one whole word) lowercased as `str.lower()` would, 0 when it is not in the set. */
  wordTag(text: string, start: number, end: number): number {
    const { ascii } = this;
    let s = 0;
    for (let i = start; i < end && s !== -1; i++) {
      let c = text.charCodeAt(i);
      // Lowercasing a non-ASCII word can change its length or depend on context: done by the engine, on the word alone.
      if (c >= 128) return this.tagOf(text.slice(start, end).toLowerCase());
      if (c >= 65 && c <= 90) c += 32;
      s = ascii[s * 128 + c]!;
    }
    return s > 0 ? this.tags[s]! : 0;
  }

  /** OR of the tags of all words of `text` that are in the set; stops early once `all` bits are seen. */
  scan(text: string, all: number): number {
    const { ascii, tags } = this;
    let found = 0;
    const n = text.length;
    for (let i = 0; i < n; ) {
      let c = text.charCodeAt(i);
      if (isWs(c)) {
        i++;
        continue;
      }
      let s = 0;
      for (;;) {
        s = c < 128 ? ascii[s * 128 + c]! : this.next(s, c);
        if (++i === n || s === -1) break;
        c = text.charCodeAt(i);
        if (isWs(c)) break;
      }
      if (s === -1) {
        while (i < n && !isWs(text.charCodeAt(i))) i++;
      } else if (s > 0 && (found |= tags[s]!) === all) {
        return found;
      }
    }
    return found;
  }
}
