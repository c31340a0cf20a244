// The decontamination index: eval items' word n-grams (exact), which items hold each, and the per-document match.
import type { LoadedEvalSet } from './eval-sets.js';
import { finish, HASH_BASE, NgramTable, scramble } from './ngram-table.js';
import { simplifyTracked } from './simplify-tracked.js';
import { decontWords, splitChunk } from './words.js';

export const DEFAULT_NGRAM = 13;

/** One eval item as the index keeps it: `"<set>:<item_id>"` and its text (the inspector shows it beside the span). */
export interface IndexedItem {
  key: string;
  text: string;
}

export interface SetStats {
  name: string;
  items: number;
  /** Items with fewer than n words: no n-grams, so never matched (DataTrove's indexer skips them too). */
  shortItems: number;
}

export interface DocMatch {
  /** Merged UTF-16 ranges of the overlapping words. */
  spans: [number, number][];
  /** Window positions whose n-gram is in the index. */
  ngrams: number;
  /** Distinct eval items hit, as `"<set>:<item_id>"`, sorted. */
  hits: string[];
}

export class DeconIndex {
  constructor(
    readonly n: number,
    readonly vocab: Map<string, number>,
    readonly table: NgramTable,
    /** CSR postings: the items of n-gram g are `postings[offsets[g]..offsets[g+1])`. */
    readonly offsets: Uint32Array,
    readonly postings: Uint32Array,
    readonly items: IndexedItem[],
    readonly sets: SetStats[],
  ) {}

  static build(sets: readonly LoadedEvalSet[], n: number): DeconIndex {
    const vocab = new Map<string, number>();
    const table = new NgramTable(n);
    const items: IndexedItem[] = [];
    const stats: SetStats[] = [];
    const pairGram: number[] = [];
    const pairItem: number[] = [];
    const lastItem: number[] = [];
    for (const set of sets) {
      const st: SetStats = { name: set.config.name, items: set.items.length, shortItems: 0 };
      for (const item of set.items) {
        const words = decontWords(item.text).words;
        const itemIdx = items.length;
        items.push({ key: `${set.config.name}:${item.id}`, text: item.text });
        if (words.length < n) {
          st.shortItems++;
          continue;
        }
        const ids = words.map((w) => {
          let id = vocab.get(w);
          if (id === undefined) vocab.set(w, (id = vocab.size));
          return id;
        });
        for (let i = 0; i + n <= ids.length; i++) {
          const g = table.insert(ids, i);
          if (lastItem[g] === itemIdx) continue;
          lastItem[g] = itemIdx;
          pairGram.push(g);
          pairItem.push(itemIdx);
        }
      }
      stats.push(st);
    }
    const offsets = new Uint32Array(table.count + 1);
    for (const g of pairGram) (offsets[g + 1] as number)++;
    for (let g = 0; g < table.count; g++) offsets[g + 1] = (offsets[g + 1] as number) + (offsets[g] as number);
    const fill = offsets.slice(0, table.count);
    const postings = new Uint32Array(pairGram.length);
    pairGram.forEach((g, k) => (postings[(fill[g] as number)++] = pairItem[k] as number));
    return new DeconIndex(n, vocab, table, offsets, postings, items, stats);
  }

  /** Bytes of the n-gram structures (table + postings), for the memory-per-n-gram figure. */
  get ngramBytes(): number {
    return this.table.bytes + this.offsets.byteLength + this.postings.byteLength;
  }

  /** Per space-free chunk of simplified text: (vocabulary id or -1, start, end) per word, offsets relative to the chunk. */
  readonly #chunks = new Map<string, Int32Array>();
  #scratch = { ids: new Int32Array(4096), starts: new Int32Array(4096), ends: new Int32Array(4096) };

  /** The document's words as vocabulary ids with their original ranges (decontWords, with one lookup per chunk). */
  #words(text: string): { ids: Int32Array; starts: Int32Array; ends: Int32Array; count: number } {
    const t = simplifyTracked(text);
    const s = t.text;
    const cap = (s.length + 1) >> 1;
    // Scratch reused across documents (match reads it before the next call).
    if (this.#scratch.ids.length < cap) this.#scratch = { ids: new Int32Array(cap * 2), starts: new Int32Array(cap * 2), ends: new Int32Array(cap * 2) };
    const { ids, starts, ends } = this.#scratch;
    let count = 0;
    for (let a = 0; a < s.length; ) {
      let b = s.indexOf(' ', a);
      if (b < 0) b = s.length;
      if (b > a) {
        const chunk = s.slice(a, b);
        let e = this.#chunks.get(chunk);
        if (e === undefined) {
          const split = splitChunk(chunk) ?? Int32Array.of(0, chunk.length);
          e = new Int32Array((split.length / 2) * 3);
          for (let k = 0, j = 0; k < split.length; k += 2, j += 3) {
            e[j] = this.vocab.get(chunk.slice(split[k], split[k + 1])) ?? -1;
            [e[j + 1], e[j + 2]] = [split[k] as number, split[k + 1] as number];
          }
          if (this.#chunks.size >= 500_000) this.#chunks.clear();
          this.#chunks.set(chunk, e);
        }
        for (let j = 0; j < e.length; j += 3, count++) {
          ids[count] = e[j] as number;
          starts[count] = t.from[a + (e[j + 1] as number)] as number;
          ends[count] = t.to[a + (e[j + 2] as number) - 1] as number;
        }
      }
      a = b + 1;
    }
    return { ids, starts, ends, count };
  }

  /** Every window of n document words that is an eval n-gram, with the words it covers mapped back to the text. */
  match(text: string): DocMatch {
    const n = this.n;
    const d = this.#words(text);
    const m = d.count;
    const ids = d.ids;
    const spans: [number, number][] = [];
    const hit = new Set<number>();
    let ngrams = 0;
    let known = 0; // run of known words ending at i
    let coverEnd = -1; // last word covered by a match so far
    let spanStartWord = -1;
    // Rolling polynomial hash of the last n known words (the table's hashIds, one step per word).
    let h = 0;
    let top = 1; // B^(n-1)
    for (let k = 1; k < n; k++) top = Math.imul(top, HASH_BASE);
    for (let i = 0; i < m; i++) {
      const id = ids[i] as number;
      if (id < 0) {
        known = 0;
        h = 0;
        continue;
      }
      if (known >= n) h = (h - Math.imul(scramble(ids[i - n] as number), top)) | 0;
      h = (Math.imul(h, HASH_BASE) + scramble(id)) | 0;
      known++;
      if (known < n) continue;
      const start = i - n + 1;
      const g = this.table.findHashed(ids, start, finish(h));
      if (g < 0) continue;
      ngrams++;
      for (let p = this.offsets[g] as number; p < (this.offsets[g + 1] as number); p++) hit.add(this.postings[p] as number);
      // Matches that overlap or touch (next word) extend the current span; otherwise the span closes.
      if (spanStartWord >= 0 && start > coverEnd + 1) {
        spans.push([d.starts[spanStartWord] as number, d.ends[coverEnd] as number]);
        spanStartWord = start;
      } else if (spanStartWord < 0) spanStartWord = start;
      coverEnd = i;
    }
    if (spanStartWord >= 0) spans.push([d.starts[spanStartWord] as number, d.ends[coverEnd] as number]);
    const hits = [...new Set([...hit].map((k) => (this.items[k] as IndexedItem).key))].sort();
    return { spans, ngrams, hits };
  }
}
