// Word n-gram counting for gopher_v1 in linear time: n-grams are interned as (previous (n-1)-gram id, word id) pairs.
import { nativeAddon } from '../../../native-addon.js';
import { atLeast, oversized } from './word-ids.js';

/**
 * Open-addressing map from an id pair to a dense id. Python's Counter over word tuples is what this
 * replaces; interning pairs avoids building an n-word string per position (gigabytes at 10 MB).
 * One table serves every order of every document: `reset` clears only the part a order needs.
 */
class PairTable {
  /** Slots of [left, right, id + 1] side by side, so a probe touches one cache line. */
  private slots = new Int32Array(64);
  private mask = 15;

  /** Empties the table, sized for `expected` keys at most half full (ids are dense, so it never grows). */
  reset(expected: number): void {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    if (this.slots.length < cap * 4 || oversized(this.slots.length, cap * 4)) this.slots = new Int32Array(cap * 4);
    else this.slots.fill(0, 0, cap * 4);
    this.mask = cap - 1;
  }

  /** Id of (a, b), inserting it with `fresh` when absent. */
  intern(a: number, b: number, fresh: number): number {
    const { slots, mask } = this;
    for (let slot = hash(a, b) & mask; ; slot = (slot + 1) & mask) {
      const k = slot << 2;
      const v = slots[k + 2]!;
      if (v === 0) {
        slots[k] = a;
        slots[k + 1] = b;
        slots[k + 2] = fresh + 1;
        return fresh;
      }
      if (slots[k] === a && slots[k + 1] === b) return v - 1;
    }
  }
}

function hash(a: number, b: number): number {
  let h = Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77);
  h ^= h >>> 15;
  h = Math.imul(h, 0x2c1b3c6d);
  return h ^ (h >>> 13);
}

/** Statistics of the n-grams of one order, as gopher.py derives them from a Counter. */
export interface NgramStats {
  n: number;
  /** `count * chars` of the most common n-gram (first inserted among ties: Counter.most_common(1)). */
  mostCommonChars: number;
  /** Σ count·chars over n-grams seen more than once. */
  duplicateChars: number;
  /** Σ count·chars over all n-grams. */
  totalChars: number;
}

const table = new PairTable();
let prefix = new Float64Array(64);
let twice = new Float64Array(64);
let wordCounts = new Int32Array(64);
/** Live positions (ascending) and the id of the (n-1)-gram starting at each. */
let pos = new Int32Array(64);
let key = new Int32Array(64);
let counts = new Int32Array(64);
let first = new Int32Array(64);

/**
 * Stats for every order 2..`maxN` that has at least one n-gram (gopher.py skips empty Counters).
 * `wordIds[i]` is the interned id of word i (dense, in first-occurrence order), `wordLen[id]` its
 * length. An n-gram whose (n-1)-gram prefix occurs once is itself unique, and so is every longer
 * one starting there: only positions whose prefix repeats stay live, and only they are interned,
 * in position order, so ids follow first occurrence, which is Counter's order for most_common
 * ties. A unique n-gram adds only its characters to the total, so totals come from prefix sums.
 */
export function ngramStatsJs(wordIds: Int32Array, wordLen: Int32Array, maxN: number): NgramStats[] {
  const w = wordIds.length;
  const out: NgramStats[] = [];
  if (prefix.length < w + 2 || oversized(prefix.length, w + 2)) {
    prefix = new Float64Array(prefix.length < w + 2 ? Math.max(w + 2, prefix.length * 2) : w + 2);
    twice = new Float64Array(prefix.length);
  }
  // prefix[i] = characters of words 0..i-1; twice[k] = Σ prefix[0..k-1] (exact: integers far below 2^53).
  prefix[0] = 0;
  for (let i = 0; i < w; i++) prefix[i + 1] = prefix[i]! + wordLen[wordIds[i]!]!;
  twice[0] = 0;
  for (let k = 0; k <= w; k++) twice[k + 1] = twice[k]! + prefix[k]!;
  wordCounts = atLeast(wordCounts, wordLen.length);
  wordCounts.fill(0, 0, wordLen.length);
  for (let i = 0; i < w; i++) wordCounts[wordIds[i]!]!++;
  pos = atLeast(pos, w);
  key = atLeast(key, w);
  let live = 0;
  for (let i = 0; i < w; i++) {
    const id = wordIds[i]!;
    if (wordCounts[id]! > 1) {
      pos[live] = i;
      key[live++] = id;
    }
  }
  for (let n = 2; n <= maxN; n++) {
    const m = w - n + 1;
    if (m <= 0) break;
    // Σ over positions i < m of prefix[i + n] − prefix[i]: every n-gram occurrence's characters.
    const total = twice[m + n]! - twice[n]! - twice[m]!;
    while (live > 0 && pos[live - 1]! >= m) live--;
    if (live === 0) {
      // Every n-gram occurs once: the most common is the first, and nothing is duplicated.
      out.push({ n, mostCommonChars: prefix[n]!, duplicateChars: 0, totalChars: total });
      continue;
    }
    table.reset(live);
    counts = atLeast(counts, live);
    first = atLeast(first, live);
    let fresh = 0;
    for (let k = 0; k < live; k++) {
      const i = pos[k]!;
      const id = table.intern(key[k]!, wordIds[i + n - 1]!, fresh);
      if (id === fresh) {
        first[fresh] = i;
        counts[fresh++] = 0;
      }
      counts[id]!++;
      key[k] = id;
    }
    let best = -1;
    let bestCount = 1;
    let dup = 0;
    for (let id = 0; id < fresh; id++) {
      const c = counts[id]!;
      if (c < 2) continue;
      const at = first[id]!;
      dup += c * (prefix[at + n]! - prefix[at]!);
      if (c > bestCount) {
        best = id;
        bestCount = c;
      }
    }
    const top = best === -1 ? prefix[n]! : bestCount * (prefix[first[best]! + n]! - prefix[first[best]!]!);
    out.push({ n, mostCommonChars: top, duplicateChars: dup, totalChars: total });
    let kept = 0;
    for (let k = 0; k < live; k++) {
      if (counts[key[k]!]! > 1) {
        pos[kept] = pos[k]!;
        key[kept++] = key[k]!;
      }
    }
    live = kept;
  }
  return out;
}

const addon = nativeAddon();
let native = new Float64Array(0);

/**
 * ngramStatsJs through the C addon when it is built (native/ngrams.c: the same walk, no warm-up, no collector),
 * else in JavaScript; the tests hold both to the naive Counter.
 */
export function ngramStats(wordIds: Int32Array, wordLen: Int32Array, maxN: number): NgramStats[] {
  if (addon === null || maxN < 2 || maxN > 64) return ngramStatsJs(wordIds, wordLen, maxN);
  if (native.length < 4 * (maxN - 1)) native = new Float64Array(4 * (maxN - 1));
  const orders = addon.ngramStats(wordIds, wordLen, maxN, native);
  const out: NgramStats[] = [];
  for (let k = 0; k < orders; k++) out.push({ n: native[4 * k]!, mostCommonChars: native[4 * k + 1]!, duplicateChars: native[4 * k + 2]!, totalChars: native[4 * k + 3]! });
  return out;
}
