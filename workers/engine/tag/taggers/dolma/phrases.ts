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

  /**
   * Built over the phrases' own characters only: any other character leads back to the root from every state
   * (no phrase holds it), which the zero-filled table already says; a 128-wide construction costs several
   * times more, and this runs once per process, before the first document is read.
   */
  private build(): Int32Array {
    const alphabet = [...new Set(this.phrases.join(''))].map((ch) => ch.charCodeAt(0));
    const col = new Int32Array(128).fill(-1);
    alphabet.forEach((c, j) => (col[c] = j));
    const width = alphabet.length;
    const next: Int32Array[] = [new Int32Array(width).fill(-1)];
    const acc: number[] = [0];
    for (const p of this.phrases) {
      let s = 0;
      for (let i = 0; i < p.length; i++) {
        const j = col[p.charCodeAt(i)]!;
        let t = next[s]![j]!;
        if (t === -1) {
          t = next.length;
          next.push(new Int32Array(width).fill(-1));
          acc.push(0);
          next[s]![j] = t;
        }
        s = t;
      }
      if (p.length > 0) acc[s] = 1;
    }
    // Breadth-first: complete the goto function with failure links, inheriting acceptance.
    const fail = new Int32Array(next.length);
    const queue: number[] = [];
    for (let j = 0; j < width; j++) {
      const t = next[0]![j]!;
      if (t === -1) next[0]![j] = 0;
      else queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q]!;
      if (acc[fail[s]!]) acc[s] = 1;
      for (let j = 0; j < width; j++) {
        const t = next[s]![j]!;
        if (t === -1) next[s]![j] = next[fail[s]!]![j]!;
        else {
          fail[t] = next[fail[s]!]![j]!;
          queue.push(t);
        }
      }
    }
    const delta = new Int32Array(next.length * 128);
    next.forEach((row, s) => row.forEach((t, j) => (delta[s * 128 + alphabet[j]!] = acc[t] ? -1 : t * 128)));
    return delta;
  }

  /** The automaton: 128 entries per state, the next state's offset, -1 once a phrase has matched (native/c4.c reads it). */
  table(): Int32Array {
    return (this.dfa ??= this.build());
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
