// A small Aho-Corasick automaton: does any of many words occur in a string (DataTrove uses pyahocorasick).

export class AhoCorasick {
  private readonly goto: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  private readonly out: boolean[] = [false];

  constructor(words: Iterable<string>) {
    for (const w of words) {
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

  get empty(): boolean {
    return this.goto.length === 1;
  }

  /** True when some word is a substring of `text`. */
  test(text: string): boolean {
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
