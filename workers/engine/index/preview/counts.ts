// Document and token counts of a bitset, overall and per source (on a sampled index: estimates with intervals).
import type { Count, CountBySource } from '../../../../shared/contract/preview.js';
import type { IndexData } from '../store/data.js';
import type { Bitset } from './bitset.js';
import { countEstimate, sumEstimate, type Design } from './estimate.js';
import { Lru } from './lru.js';

/** Accumulates counts per source code; turned into the contract's shape at the end. */
export class Tally {
  docs = 0;
  tokens = 0;
  /** Σ tokens², for a sampled index's intervals (sets are disjoint where tallies are subtracted, so it adds up too). */
  tokens2 = 0;
  readonly bySourceDocs: Float64Array;
  readonly bySourceTokens: Float64Array;
  readonly bySourceTokens2: Float64Array;

  constructor(readonly data: IndexData) {
    this.bySourceDocs = new Float64Array(data.sourceNames.length);
    this.bySourceTokens = new Float64Array(data.sourceNames.length);
    this.bySourceTokens2 = new Float64Array(data.sourceNames.length);
  }

  addSet(b: Bitset): this {
    if (this.data.sample === null) return this.addExact(b);
    const tokens = this.data.tokens;
    const source = this.data.source;
    const sd = this.bySourceDocs;
    const st = this.bySourceTokens;
    const st2 = this.bySourceTokens2;
    let docs = 0;
    let tok = 0;
    let tok2 = 0;
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
        tok2 += t * t;
        sd[s]! += 1;
        st[s]! += t;
        st2[s]! += t * t;
      }
    }
    this.docs += docs;
    this.tokens += tok;
    this.tokens2 += tok2;
    return this;
  }

  /** addSet without the sums of squares only a sample's intervals need (the hot loop of an exact preview). */
  private addExact(b: Bitset): this {
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

  /**
   * Adds the documents of `now` missing from `before` and takes away those of `before` missing from `now`:
   * applied to `before`'s tally it gives `now`'s, in time proportional to how much the two differ.
   */
  addDiff(now: Bitset, before: Bitset): this {
    const tokens = this.data.tokens;
    const source = this.data.source;
    const a = now.words;
    const b = before.words;
    for (let i = 0; i < a.length; i++) {
      const x = a[i] as number;
      const y = b[i] as number;
      if (x === y) continue;
      for (let sign = 1, m = (x & ~y) >>> 0; sign >= -1; sign -= 2, m = (y & ~x) >>> 0) {
        while (m !== 0) {
          const low = m & -m;
          const g = (i << 5) + (31 - Math.clz32(low));
          m = (m ^ low) >>> 0;
          const t = tokens[g] as number;
          const s = source[g] as number;
          this.docs += sign;
          this.tokens += sign * t;
          this.tokens2 += sign * t * t;
          this.bySourceDocs[s]! += sign;
          this.bySourceTokens[s]! += sign * t;
          this.bySourceTokens2[s]! += sign * t * t;
        }
      }
    }
    return this;
  }

  clone(): Tally {
    const t = new Tally(this.data);
    t.addTally(this);
    return t;
  }

  addTally(o: Tally, sign = 1): this {
    this.docs += sign * o.docs;
    this.tokens += sign * o.tokens;
    this.tokens2 += sign * o.tokens2;
    for (let s = 0; s < this.bySourceDocs.length; s++) {
      this.bySourceDocs[s]! += sign * (o.bySourceDocs[s] as number);
      this.bySourceTokens[s]! += sign * (o.bySourceTokens[s] as number);
      this.bySourceTokens2[s]! += sign * (o.bySourceTokens2[s] as number);
    }
    return this;
  }

  result(): CountBySource {
    const bySource: Record<string, Count> = {};
    const one = this.estimator();
    // A sample that holds none of a source's documents in a set still bounds how many there are: list every source.
    const every = this.data.sample !== null;
    this.data.sourceNames.forEach((name, s) => {
      const docs = this.bySourceDocs[s] as number;
      if (docs > 0 || every) bySource[name] = one(docs, this.bySourceTokens[s] as number, this.bySourceTokens2[s] as number);
    });
    return { ...one(this.docs, this.tokens, this.tokens2), bySource };
  }

  /** Exact counts as they are; a sample's scaled to the index, with their intervals. */
  private estimator(): (docs: number, tokens: number, tokens2: number) => Count {
    const s = this.data.sample;
    if (s === null) return (docs, tokens) => ({ docs, tokens });
    const d: Design = { n: s.docs, N: s.of, z: s.z };
    const mean = meanTokens(this.data);
    return (docs, tokens, tokens2) => {
      const c = countEstimate(docs, d);
      const t = sumEstimate(tokens, tokens2, docs, d, mean);
      return { docs: c.value, tokens: t.value, ci: { docs: c.ci, tokens: t.ci } };
    };
  }
}

const means = new WeakMap<IndexData, number>();

/** Mean tokens per document of the sample (the per-document guess for a set it holds none of). */
function meanTokens(data: IndexData): number {
  let m = means.get(data);
  if (m === undefined) {
    let sum = 0;
    for (let g = 0; g < data.n; g++) sum += data.tokens[g] as number;
    means.set(data, (m = data.n === 0 ? 0 : sum / data.n));
  }
  return m;
}

export const tally = (data: IndexData, b: Bitset): Tally => new Tally(data).addSet(b);

/**
 * The last set counted under each name (a rule's in-order or exclusive drops in a stream) and its tally:
 * after an edit the same name's new set differs from the last in few documents, so its tally is the last
 * one plus the difference (a slider drag recounts what moved, not every dropped document). The name only
 * picks which earlier set to start from; the result is the new set's tally whatever it names.
 */
export class TallySlots {
  private readonly last = new Lru<string, { set: Bitset; tally: Tally }>(256);

  tally(data: IndexData, name: string, set: Bitset): Tally {
    const prev = this.last.get(name);
    if (prev !== undefined && prev.set === set && prev.tally.data === data) return prev.tally;
    const tally = prev !== undefined && prev.tally.data === data && prev.set.size === set.size ? prev.tally.clone().addDiff(set, prev.set) : new Tally(data).addSet(set);
    this.last.set(name, { set, tally });
    return tally;
  }
}
