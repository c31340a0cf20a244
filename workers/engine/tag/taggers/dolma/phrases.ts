// Substring search for many ASCII phrases at once (Aho–Corasick as a DFA): one linear pass per text.

/**
 * `any(phrase in text for phrase in phrases)` in O(len(text)), however many phrases there are.
 * Phrases must be ASCII; any other character resets the automaton, which is exact because no
 * phrase can contain it.
 */
export class PhraseMatcher {
  /** Transitions of state s (a multiple of 128) at [s + c]; -1 once a phrase has matched (test stops there). */
  private dfa: Int32Array | null = null;

  // The automaton is built on the first test(): a module constructs its matcher at load time, and every
  // `assay tag` loads the module, whether or not its tagger runs (≈ 10–20 ms of start-up otherwise).
  constructor(private readonly phrases: readonly string[]) {
    for (const p of phrases) for (let i = 0; i < p.length; i++) if (p.charCodeAt(i) >= 128) throw new Error(`PhraseMatcher: non-ASCII phrase ${JSON.stringify(p)}`);
  }

  private build(): Int32Array {
    const phrases = this.phrases;
    const next: Int32Array[] = [new Int32Array(128).fill(-1)];
    const acc: number[] = [0];
    for (const p of phrases) {
      let s = 0;
      for (let i = 0; i < p.length; i++) {
        const c = p.charCodeAt(i);
        if (c >= 128) throw new Error(`PhraseMatcher: non-ASCII phrase ${JSON.stringify(p)}`);
        let t = next[s]![c]!;
        if (t === -1) {
          t = next.length;
          next.push(new Int32Array(128).fill(-1));
          acc.push(0);
          next[s]![c] = t;
        }
        s = t;
      }
      if (p.length > 0) acc[s] = 1;
    }
    // Breadth-first: complete the goto function with failure links, inheriting acceptance.
    const fail = new Int32Array(next.length);
    const queue: number[] = [];
    for (let c = 0; c < 128; c++) {
      const t = next[0]![c]!;
      if (t === -1) next[0]![c] = 0;
      else queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      if (acc[fail[s]!]) acc[s] = 1;
      for (let c = 0; c < 128; c++) {
        const t = next[s]![c]!;
        if (t === -1) next[s]![c] = next[fail[s]!]![c]!;
        else {
          fail[t] = next[fail[s]!]![c]!;
          queue.push(t);
        }
      }
    }
    const delta = new Int32Array(next.length * 128);
    next.forEach((row, s) => row.forEach((t, c) => (delta[s * 128 + c] = acc[t] ? -1 : t * 128)));
    return delta;
  }

  /** Whether any phrase occurs in `text`. */
  test(text: string): boolean {
    const delta = (this.dfa ??= this.build());
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      s = c < 128 ? delta[s + c]! : 0;
      if (s < 0) return true;
    }
    return false;
  }
}
