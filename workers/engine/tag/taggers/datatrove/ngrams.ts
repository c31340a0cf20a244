// Gopher repetition's top n-gram (gopher_repetition_filter.py `find_top_duplicate(get_n_grams(words, n))`) over word ids.
import { nativeAddon, ordersOf } from '../../../native-addon.js';
import { PairTable } from './pair-table.js';
import type { WordIds } from './word-ids.js';

export { findDuplicates } from '../../../text/duplicates.js';

// Scratch arrays and table reused from document to document (nothing here outlives a call).
const buffers = [new Int32Array(256), new Int32Array(256), new Int32Array(256), new Int32Array(256)];
const table = new PairTable();

function scratch(k: number, size: number): Int32Array {
  if ((buffers[k] as Int32Array).length < size) buffers[k] = new Int32Array(Math.max(size, 2 * (buffers[k] as Int32Array).length));
  return buffers[k] as Int32Array;
}

/**
 * `find_top_duplicate(get_n_grams(words, n))` for each requested n: `len(ngram) * count` of `Counter.most_common(1)`
 * (ties go to the n-gram seen first), undefined when there is no n-gram. N-grams are space-joined and words hold no
 * whitespace, so equal strings are equal word tuples and can be numbered level by level ((n-1)-gram id, word id)
 * without building strings. An n-gram whose first or last (n-1)-gram occurs once is unique: it is marked -1 and never
 * looked up.
 * Only repeated-prefix n-grams are numbered, in position order (first occurrence); if none repeats, the most common
 * is the first n-gram.
 */
export function topNgramCharsJs(w: WordIds, ns: readonly number[]): Map<number, number | undefined> {
  const out = new Map<number, number | undefined>();
  const maxN = Math.max(0, ...ns);
  const total = w.count;
  const ids = w.ids;
  const wordCounts = scratch(0, w.vocab).fill(0, 0, w.vocab);
  for (let i = 0; i < total; i++) wordCounts[ids[i] as number]!++;
  if (ns.includes(1)) out.set(1, total === 0 ? undefined : topWord(w, wordCounts));
  let prev = scratch(1, total);
  let cur = scratch(2, total);
  for (let i = 0; i < total; i++) prev[i] = (wordCounts[ids[i] as number] as number) > 1 ? (ids[i] as number) : -1;
  for (let n = 2; n <= maxN; n++) {
    const count = Math.max(0, total - n + 1);
    // An n-gram repeats only if both its (n-1)-grams do: the others are unique and stay unnumbered.
    let repeated = 0;
    for (let i = 0; i < count; i++) {
      if (prev[i + 1] === -1) prev[i] = -1;
      else if (prev[i] !== -1) repeated++;
    }
    const map = table.reset(repeated);
    const counts = scratch(0, repeated).fill(0, 0, repeated);
    const first = scratch(3, repeated);
    for (let i = 0; i < count; i++) {
      const a = prev[i] as number;
      if (a === -1) {
        cur[i] = -1;
        continue;
      }
      let id = map.getOrAdd(a, ids[i + n - 1] as number);
      if (id < 0) {
        id = map.size - 1;
        first[id] = i;
      }
      counts[id]!++;
      cur[i] = id;
    }
    if (ns.includes(n)) {
      let at = 0;
      let best = 1;
      for (let id = 0; id < map.size; id++) {
        if ((counts[id] as number) > best) {
          best = counts[id] as number;
          at = first[id] as number;
        }
      }
      out.set(n, count === 0 ? undefined : spaceJoinedLength(w, at, n) * best);
    }
    for (let i = 0; i < count; i++) if (cur[i] !== -1 && counts[cur[i] as number] === 1) cur[i] = -1;
    [prev, cur] = [cur, prev];
  }
  return out;
}

/** Code points of words[at..at+n) joined with single spaces. */
function spaceJoinedLength(w: WordIds, at: number, n: number): number {
  let len = n - 1;
  for (let k = 0; k < n; k++) len += w.cpLens[w.ids[at + k] as number] as number;
  return len;
}

/** The most common word's characters × its count (ids are in first-seen order, so the lowest id wins ties). */
function topWord(w: WordIds, counts: Int32Array): number {
  let best = 0;
  for (let id = 1; id < w.vocab; id++) if ((counts[id] as number) > (counts[best] as number)) best = id;
  return (w.cpLens[best] as number) * (counts[best] as number);
}

const addon = nativeAddon();
let values = new Float64Array(8);

/**
 * topNgramCharsJs through the C addon when it is built (native/dup-ngrams.c: the same walk, no warm-up), else in
 * JavaScript; the tests hold both to Counter over space-joined n-grams.
 */
export function topNgramChars(w: WordIds, ns: readonly number[]): Map<number, number | undefined> {
  const orders = addon === null ? null : ordersOf(ns);
  if (addon === null || orders === null) return topNgramCharsJs(w, ns);
  if (values.length < ns.length) values = new Float64Array(ns.length);
  addon.topNgramChars(w.ids, w.count, w.cpLens, orders, values);
  const out = new Map<number, number | undefined>();
  ns.forEach((n, k) => out.set(n, Number.isNaN(values[k]) ? undefined : values[k]));
  return out;
}
