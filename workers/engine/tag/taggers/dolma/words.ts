// Whole-word membership over a text without slicing words out: a trie walked from each word start.
import { isPyWs } from './text.js';

/**
 * Finds whitespace-delimited words (Python `str.split()`) of a text that belong to a fixed set.
 * Each word is walked in a trie and abandoned at its first character that leaves the trie, so a
 * pass costs about one step per character and allocates nothing.
 */
export class WordTrie {
  private readonly ascii: Int32Array[] = [new Int32Array(128).fill(-1)];
  private readonly other: Map<number, number>[] = [new Map()];
  private readonly tags: number[] = [0];

  /** Adds `word` (no whitespace) with a tag bit. */
  add(word: string, tag: number): void {
    let s = 0;
    for (let i = 0; i < word.length; i++) s = this.child(s, word.charCodeAt(i), true);
    this.tags[s]! |= tag;
  }

  private child(s: number, c: number, create: boolean): number {
    let t = c < 128 ? this.ascii[s]![c]! : (this.other[s]!.get(c) ?? -1);
    if (t === -1 && create) {
      t = this.tags.length;
      this.ascii.push(new Int32Array(128).fill(-1));
      this.other.push(new Map());
      this.tags.push(0);
      if (c < 128) this.ascii[s]![c] = t;
      else this.other[s]!.set(c, t);
    }
    return t;
  }

  /** OR of the tags of all words of `text` that are in the set; stops early once `all` bits are seen. */
  scan(text: string, all: number): number {
    let found = 0;
    const n = text.length;
    let i = 0;
    while (i < n && found !== all) {
      while (i < n && isPyWs(text.charCodeAt(i))) i++;
      let s = 0;
      for (; i < n; i++) {
        const c = text.charCodeAt(i);
        if (isPyWs(c)) break;
        if (s >= 0) s = this.child(s, c, false);
      }
      if (s > 0) found |= this.tags[s]!;
    }
    return found;
  }
}
