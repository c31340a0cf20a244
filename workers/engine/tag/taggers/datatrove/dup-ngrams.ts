// Gopher repetition's `find_all_duplicate(words, n)` for several n at once, over the words' characters end to end.
import { nativeAddon, ordersOf } from '../../../native-addon.js';
import { wordIdsOf, type WordIds } from './word-ids.js';

const B = 0x01000193;
/** Runs of this many characters decide which windows can repeat at all (see allDuplicateChars). */
export const RUN = 16;

// Scratch reused from document to document: powers of B, prefix hashes, code-point sums, run marks, the tables.
let powers = new Int32Array([1]);
let prefix = new Int32Array(1024);
let cps = new Int32Array(1024);
let startSeen = new Uint8Array(1024);
let endSeen = new Uint8Array(1024);
let runCounts = new Uint8Array(8192);
let runSlots = new Int32Array(1024);
let stamp = new Int32Array(2048);
let keys = new Int32Array(2048);
let pos = new Int32Array(2048);
let gen = 0;

const mix = (h: number): number => Math.imul(h ^ (h >>> 16), 0x85ebca6b) ^ (h >>> 13);

function growPowers(len: number): void {
  if (powers.length > len) return;
  const p = new Int32Array(Math.max(len + 1, 2 * powers.length));
  p[0] = 1;
  for (let k = 1; k < p.length; k++) p[k] = Math.imul(p[k - 1] as number, B);
  powers = p;
}

/**
 * `find_all_duplicate(words, n)` for each n of `ns`: walk the n-grams joined with **no** separator (so `("ab","c")`
 * equals `("a","bc")`); a repeat adds its length and skips n words. A window is `chars[starts[i], starts[i + n])`,
 * hashed from prefix hashes in O(1) and checked against the characters on every hash hit (collisions only cost
 * time). Most windows are not looked up at all: a window equal to another one elsewhere in the document begins
 * with RUN characters that also begin at another word and ends with RUN characters that also end at another word;
 * a window of at least RUN characters lacking either is unique in the document, so it is neither found in upstream's
 * set nor ever matched by a later window, and skipping its insertion changes nothing. The run marks are counted in a
 * small hashed array, so a collision only marks more windows.
 */
export function allDuplicateCharsJs(w: WordIds, ns: readonly number[]): number[] {
  const { count, chars } = w;
  const total = chars.length;
  growPowers(Math.max(total, RUN));
  if (prefix.length < total + 1) prefix = new Int32Array(2 * total + 1);
  if (cps.length < count + 1) cps = new Int32Array(2 * count + 1);
  const H = prefix;
  for (let c = 0; c < total; c++) H[c + 1] = (Math.imul(H[c] as number, B) + (chars[c] as number)) | 0;
  for (let i = 0; i < count; i++) cps[i + 1] = (cps[i] as number) + (w.cpLens[w.ids[i] as number] as number);
  markRuns(w, 0);
  markRuns(w, 1);
  const out: number[] = [];
  for (let k = 0; k < ns.length; k++) out.push(walk(w, ns[k] as number));
  return out;
}

/** One n: upstream's walk over the windows, looking up only those the run marks let through. */
function walk(w: WordIds, n: number): number {
  const { count, starts } = w;
  const H = prefix;
  const P = powers;
  const mask = tableFor(count);
  let repeated = 0;
  let idx = 0;
  while (idx < count - n + 1) {
    const s = starts[idx] as number;
    const e = starts[idx + n] as number;
    if (e - s >= RUN && (startSeen[idx] === 0 || endSeen[idx + n] === 0)) {
      idx++;
      continue;
    }
    const h = ((H[e] as number) - Math.imul(H[s] as number, P[e - s] as number)) | 0;
    let slot = mix(h) & mask;
    let dup = false;
    for (; stamp[slot] === gen; slot = (slot + 1) & mask) {
      if (keys[slot] === h && sameChars(w, pos[slot] as number, s, e, n)) {
        dup = true;
        break;
      }
    }
    if (dup) {
      repeated += (cps[idx + n] as number) - (cps[idx] as number);
      idx += n;
    } else {
      stamp[slot] = gen;
      keys[slot] = h;
      pos[slot] = idx;
      idx++;
    }
  }
  return repeated;
}

/** Whether the n words from `j` have the characters chars[s, e). */
function sameChars(w: WordIds, j: number, s: number, e: number, n: number): boolean {
  const a = w.starts[j] as number;
  if ((w.starts[j + n] as number) - a !== e - s) return false;
  const c = w.chars;
  for (let k = 0; k < e - s; k++) if (c[a + k] !== c[s + k]) return false;
  return true;
}

/** A fresh exact table (new stamp) with room for every window; returns its mask. */
function tableFor(count: number): number {
  let cap = 1024;
  while (cap < 2 * count) cap *= 2;
  if (stamp.length < cap) {
    stamp = new Int32Array(cap);
    keys = new Int32Array(cap);
    pos = new Int32Array(cap);
  }
  if (++gen === 0x7fffffff) {
    stamp.fill(0);
    gen = 1;
  }
  return cap - 1;
}

/**
 * For every word boundary i (0..count): whether the RUN characters starting there (side 0) or ending there (side 1)
 * also start (end) at another boundary, as far as a hashed count can tell (1 = maybe, 0 = surely not).
 */
function markRuns(w: WordIds, side: 0 | 1): void {
  const { count, starts } = w;
  const total = w.chars.length;
  let size = 8192;
  while (size < 8 * (count + 1)) size *= 2;
  if (runCounts.length < size) runCounts = new Uint8Array(size);
  else runCounts.fill(0, 0, size);
  if (runSlots.length < count + 1) runSlots = new Int32Array(2 * count + 2);
  if (startSeen.length < count + 1) {
    startSeen = new Uint8Array(2 * count + 2);
    endSeen = new Uint8Array(2 * count + 2);
  }
  const H = prefix;
  const pk = powers[RUN] as number;
  const m = size - 1;
  for (let i = 0; i <= count; i++) {
    const b = starts[i] as number;
    const s = side === 0 ? b : b - RUN;
    if (s < 0 || s + RUN > total) {
      runSlots[i] = -1;
      continue;
    }
    const slot = mix(((H[s + RUN] as number) - Math.imul(H[s] as number, pk)) | 0) & m;
    runSlots[i] = slot;
    if ((runCounts[slot] as number) < 2) runCounts[slot]!++;
  }
  const seen = side === 0 ? startSeen : endSeen;
  for (let i = 0; i <= count; i++) {
    const slot = runSlots[i] as number;
    seen[i] = slot >= 0 && (runCounts[slot] as number) >= 2 ? 1 : 0;
  }
}

let primed = false;
const addon = nativeAddon();
let out = new Float64Array(8);

/**
 * allDuplicateCharsJs through the C addon when it is built (native/dup-ngrams.c: the same walk, 64-bit hashes, no
 * warm-up), else in JavaScript; the tests hold both to upstream's naive walk.
 */
export function allDuplicateChars(w: WordIds, ns: readonly number[]): number[] {
  const orders = addon === null ? null : ordersOf(ns);
  if (addon === null || orders === null) return allDuplicateCharsJs(w, ns);
  if (out.length < ns.length) out = new Float64Array(ns.length);
  addon.allDuplicateChars(w.chars, w.starts, w.ids, w.cpLens, w.count, orders, out);
  return Array.from(out.subarray(0, ns.length));
}

/**
 * Runs every path (growth, hits, misses, short and long windows) while the functions are cold: a long first document
 * would otherwise have them compiled on the stack (OSR) before some paths ever ran, and Node 20 re-entered that
 * code, and deoptimized in it, on every later long document. Several calls: V8 allocates a function's feedback only
 * after a few. Once per process, when a tagger using allDuplicateChars is created (not when the registry is loaded:
 * every command listing taggers would pay for it).
 */
export function primeDuplicateChars(): void {
  if (primed || addon !== null) return;
  primed = true;
  const warm = wordIdsOf(Array.from({ length: 1500 }, (_, i) => (i % 7 === 0 ? 'a-rather-long-repeated-word' : `w${i % 50}`)));
  for (let k = 0; k < 12; k++) allDuplicateCharsJs(warm, [1, 2, 5, 10]);
}
