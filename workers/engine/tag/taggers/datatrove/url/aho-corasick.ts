// A small Aho-Corasick automaton: does any of many words occur in a string (DataTrove uses pyahocorasick).
import { PhraseMatcher } from '../../dolma/phrases.js';

/** Characters of ASCII words up to which test() runs a table automaton (128 ints per state: ≤ 10 MB). */
const TABLE_MAX_CHARS = 20_000;

export class AhoCorasick {
  private readonly goto: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  private readonly out: boolean[] = [false];
  /** The same search as a transition table when every word is ASCII (the URL filter's normalized subwords): one array read per character instead of map lookups. */
  private readonly table: PhraseMatcher | null;
  private readonly words: boolean;

  constructor(words: Iterable<string>) {
    const list = [...words];
    let chars = 0;
    let ascii = true;
    for (const w of list) {
      chars += w.length;
      for (let i = 0; i < w.length; i++) if (w.charCodeAt(i) >= 0x80) ascii = false;
    }
    this.table = ascii && chars <= TABLE_MAX_CHARS ? new PhraseMatcher(list) : null;
    this.words = list.some((w) => w !== '');
    if (this.table !== null) return;
    for (const w of list) {
      if (w === '') continue; // pyahocorasick never matches an empty key
      let s = 0;
      for (let i = 0; i < w.length; i++) {
        const c = w.charCodeAt(i);
        let t = this.goto[s]?.get(c);
        if (t === undefined) {
          t = this.goto.length;
          this.goto.push(new Map());
          this.fail.push(0);
          this.out.push(false);
          this.goto[s]?.set(c, t);
        }
        s = t;
      }
      this.out[s] = true;
    }
    const queue: number[] = [...(this.goto[0]?.values() ?? [])];
    for (let q = 0; q < queue.length; q++) {
      const r = queue[q] as number;
      for (const [c, u] of this.goto[r] ?? []) {
        queue.push(u);
        let f = this.fail[r] as number;
        while (f !== 0 && !this.goto[f]?.has(c)) f = this.fail[f] as number;
        const v = this.goto[f]?.get(c);
        this.fail[u] = v !== undefined && v !== u ? v : 0;
        if (this.out[this.fail[u] as number]) this.out[u] = true;
      }
    }
  }

  /** No word to find (pyahocorasick never matches an empty key). */
  get empty(): boolean {
    return !this.words;
  }

  /** True when some word is a substring of `text`. */
  test(text: string): boolean {
    if (this.table !== null) return this.table.test(text);
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      while (s !== 0 && !this.goto[s]?.has(c)) s = this.fail[s] as number;
      s = this.goto[s]?.get(c) ?? 0;
      if (this.out[s]) return true;
    }
    return false;
  }
}
