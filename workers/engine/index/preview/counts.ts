// Document and token counts of a bitset, overall and per source.
import type { Count, CountBySource } from '../../../../shared/contract/preview.js';
import type { IndexData } from '../store/data.js';
import type { Bitset } from './bitset.js';

/** Accumulates counts per source code; turned into the contract's shape at the end. */
export class Tally {
  docs = 0;
  tokens = 0;
  readonly bySourceDocs: Float64Array;
  readonly bySourceTokens: Float64Array;

  constructor(private readonly data: IndexData) {
    this.bySourceDocs = new Float64Array(data.sourceNames.length);
    this.bySourceTokens = new Float64Array(data.sourceNames.length);
  }

  addSet(b: Bitset): this {
    const tokens = this.data.tokens;
    const source = this.data.source;
    const sd = this.bySourceDocs;
    const st = this.bySourceTokens;
    let docs = 0;
    let tok = 0;
    const w = b.words;
    for (let i = 0; i < w.length; i++) {
      let x = w[i] as number;
      while (x !== 0) {
        const low = x & -x;
        const g = (i << 5) + (31 - Math.clz32(low));
        x ^= low;
        const t = tokens[g] as number;
        const s = source[g] as number;
        docs++;
        tok += t;
        sd[s]! += 1;
        st[s]! += t;
      }
    }
    this.docs += docs;
    this.tokens += tok;
    return this;
  }

  addTally(o: Tally, sign = 1): this {
    this.docs += sign * o.docs;
    this.tokens += sign * o.tokens;
    for (let s = 0; s < this.bySourceDocs.length; s++) {
      this.bySourceDocs[s]! += sign * (o.bySourceDocs[s] as number);
      this.bySourceTokens[s]! += sign * (o.bySourceTokens[s] as number);
    }
    return this;
  }

  result(): CountBySource {
    const bySource: Record<string, Count> = {};
    this.data.sourceNames.forEach((name, s) => {
      const docs = this.bySourceDocs[s] as number;
      if (docs > 0) bySource[name] = { docs, tokens: this.bySourceTokens[s] as number };
    });
    return { docs: this.docs, tokens: this.tokens, bySource };
  }
}

export const tally = (data: IndexData, b: Bitset): Tally => new Tally(data).addSet(b);
