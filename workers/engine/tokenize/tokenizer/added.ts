// Added-token extraction before pre-tokenization: leftmost-longest matches, with lstrip/rstrip eating neighbouring whitespace.
import type { AddedTokenSpec } from './types.js';

const TRAILING_WS = /\p{White_Space}+$/u;
const LEADING_WS = /^\p{White_Space}+/u;

/** Splits text into plain sections and added tokens (HF `AddedVocabulary::split_with_indices`). */
export class AddedTokenSplitter {
  readonly #pattern: RegExp;
  readonly #byContent: Map<string, AddedTokenSpec>;

  /** Null when there is nothing to match. */
  static create(tokens: readonly AddedTokenSpec[], contentOf: (t: AddedTokenSpec) => string = (t) => t.content): AddedTokenSplitter | null {
    const byContent = new Map<string, AddedTokenSpec>();
    for (const t of tokens) {
      const c = contentOf(t);
      if (c.length > 0) byContent.set(c, t);
    }
    return byContent.size === 0 ? null : new AddedTokenSplitter(byContent);
  }

  private constructor(byContent: Map<string, AddedTokenSpec>) {
    this.#byContent = byContent;
    // Longest first: at the leftmost match position the first alternative that matches is the longest one.
    const alts = [...byContent.keys()].sort((a, b) => b.length - a.length).map((c) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.#pattern = new RegExp(alts.join('|'), 'g');
  }

  /** Plain sections (strings, possibly empty) and matched tokens, in text order. */
  split(text: string): (string | AddedTokenSpec)[] {
    const out: (string | AddedTokenSpec)[] = [];
    const re = this.#pattern;
    re.lastIndex = 0;
    let last = 0;
    let pendingRstrip = false;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const tok = this.#byContent.get(m[0]) as AddedTokenSpec;
      let before = text.slice(last, m.index);
      if (pendingRstrip) before = before.replace(LEADING_WS, '');
      if (tok.lstrip) before = before.replace(TRAILING_WS, '');
      out.push(before, tok);
      last = m.index + m[0].length;
      pendingRstrip = tok.rstrip;
    }
    if (last === 0) return [text];
    let tail = text.slice(last);
    if (pendingRstrip) tail = tail.replace(LEADING_WS, '');
    out.push(tail);
    return out;
  }
}
