// Gopher repetition helpers (gopher_repetition_filter.py): duplicate elements, top n-gram, all duplicated n-grams.
import { cpLength } from '../../../text/python.js';
import { PairTable } from './pair-table.js';
import { findDuplicates } from '../../../text/duplicates.js';

export { findDuplicates };

/** Words as dense ids (first-seen order) plus their lengths in code points. */
export interface WordTable {
  ids: Int32Array;
  cpLens: Int32Array;
  words: readonly string[];
  vocab: number;
}

export function wordTable(words: readonly string[]): WordTable {
  const map = new Map<string, number>();
  const ids = new Int32Array(words.length);
  const cpLens = new Int32Array(words.length);
  words.forEach((w, i) => {
    let id = map.get(w);
    if (id === undefined) map.set(w, (id = map.size));
    ids[i] = id;
    cpLens[i] = cpLength(w);
  });
  return { ids, cpLens, words, vocab: map.size };
}

/**
 * `find_top_duplicate(get_n_grams(words, n))` for each requested n: `len(ngram) * count` of `Counter.most_common(1)`
 * (ties go to the n-gram seen first). N-grams are space-joined and words hold no whitespace, so equal strings are
 * equal word tuples and can be numbered level by level ((n-1)-gram id, word id) without building strings. An n-gram
 * whose (n-1)-gram occurs once is unique: it is marked -1 and never looked up. Only repeated-prefix n-grams are
 * numbered, in position order (first occurrence); if none repeats, the most common is the first n-gram.
 */
export function topNgramChars(t: WordTable, ns: readonly number[]): Map<number, number | undefined> {
  const out = new Map<number, number | undefined>();
  const maxN = Math.max(0, ...ns);
  const total = t.ids.length;
  if (maxN >= 1 && ns.includes(1)) out.set(1, total === 0 ? undefined : topChars(t, t.ids, t.vocab, 1));
  const wordCounts = new Int32Array(t.vocab);
  for (let i = 0; i < total; i++) wordCounts[t.ids[i] as number]!++;
  let prev = new Int32Array(total);
  for (let i = 0; i < total; i++) prev[i] = (wordCounts[t.ids[i] as number] as number) > 1 ? (t.ids[i] as number) : -1;
  for (let n = 2; n <= maxN; n++) {
    const count = Math.max(0, total - n + 1);
    let repeated = 0;
    for (let i = 0; i < count; i++) if (prev[i] !== -1) repeated++;
    const map = new PairTable(repeated);
    const cur = new Int32Array(count);
    const counts = new Int32Array(repeated);
    const first = new Int32Array(repeated);
    for (let i = 0; i < count; i++) {
      const a = prev[i] as number;
      if (a === -1) {
        cur[i] = -1;
        continue;
      }
      const b = t.ids[i + n - 1] as number;
      let id = map.get(a, b);
      if (id < 0) {
        id = map.size;
        map.set(a, b, id);
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
      out.set(n, count === 0 ? undefined : spaceJoinedLength(t, at, n) * best);
    }
    for (let i = 0; i < count; i++) if (cur[i] !== -1 && counts[cur[i] as number] === 1) cur[i] = -1;
    prev = cur;
  }
  return out;
}

/** Code points of words[at..at+n) joined with single spaces. */
function spaceJoinedLength(t: WordTable, at: number, n: number): number {
  let len = n - 1;
  for (let k = 0; k < n; k++) len += t.cpLens[at + k] as number;
  return len;
}

function topChars(t: WordTable, ids: Int32Array, distinct: number, n: number): number {
  const counts = new Int32Array(distinct);
  const first = new Int32Array(distinct).fill(-1);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as number;
    counts[id] = (counts[id] as number) + 1;
    if (first[id] === -1) first[id] = i;
  }
  let best = 0;
  for (let id = 1; id < distinct; id++) if ((counts[id] as number) > (counts[best] as number)) best = id;
  return spaceJoinedLength(t, first[best] as number, n) * (counts[best] as number);
}

const B1 = 0x01000193;
const B2 = 0x5bd1e995;

/** The inverse of an odd number mod 2^32 (Newton's iteration; each step doubles the correct low bits, from 3). */
function inverse(x: number): number {
  let y = x;
  for (let k = 0; k < 5; k++) y = Math.imul(y, 2 - Math.imul(x, y));
  return y;
}

/**
 * Polynomial hashes mod 2^32 of every prefix of `"".join(words)`, for two bases, with the powers B^len of each prefix
 * and their inverses (B is odd, so every power is invertible). A window's hash — the hash of its words' concatenation
 * — is then `S[j] − S[i]·P[j]·P[i]⁻¹`: two multiplications however long the window. Per position, six values:
 * S₁, S₂, P₁, P₂, P₁⁻¹, P₂⁻¹. Each distinct word is hashed once. Collisions only cost time: every hit is checked
 * against the words themselves.
 */
export function prefixHashes(t: WordTable): Int32Array {
  const { words, ids } = t;
  const per = new Int32Array(t.vocab * 6);
  const h = new Int32Array((words.length + 1) * 6);
  h[2] = h[3] = h[4] = h[5] = 1;
  let seen = 0;
  for (let i = 0; i < words.length; i++) {
    const id = ids[i] as number;
    const v = id * 6;
    if (id === seen) {
      seen++;
      const w = words[i] as string;
      let a = 0;
      let b = 0;
      let pa = 1;
      let pb = 1;
      for (let k = 0; k < w.length; k++) {
        const c = w.charCodeAt(k);
        a = (Math.imul(a, B1) + c) | 0;
        b = (Math.imul(b, B2) + c) | 0;
        pa = Math.imul(pa, B1);
        pb = Math.imul(pb, B2);
      }
      per[v] = a;
      per[v + 1] = b;
      per[v + 2] = pa;
      per[v + 3] = pb;
      per[v + 4] = inverse(pa);
      per[v + 5] = inverse(pb);
    }
    const o = i * 6;
    const pa = per[v + 2] as number;
    const pb = per[v + 3] as number;
    h[o + 6] = (Math.imul(h[o] as number, pa) + (per[v] as number)) | 0;
    h[o + 7] = (Math.imul(h[o + 1] as number, pb) + (per[v + 1] as number)) | 0;
    h[o + 8] = Math.imul(h[o + 2] as number, pa);
    h[o + 9] = Math.imul(h[o + 3] as number, pb);
    h[o + 10] = Math.imul(h[o + 4] as number, per[v + 4] as number);
    h[o + 11] = Math.imul(h[o + 5] as number, per[v + 5] as number);
  }
  return h;
}

/** Whether `"".join(words[a:a+n]) == "".join(words[b:b+n])`, compared character by character. */
function sameConcat(words: readonly string[], a: number, b: number, n: number): boolean {
  let wa = a;
  let wb = b;
  let ia = 0;
  let ib = 0;
  const endA = a + n;
  const endB = b + n;
  for (;;) {
    while (wa < endA && ia === (words[wa] as string).length) {
      wa++;
      ia = 0;
    }
    while (wb < endB && ib === (words[wb] as string).length) {
      wb++;
      ib = 0;
    }
    if (wa === endA || wb === endB) return wa === endA && wb === endB;
    if ((words[wa] as string).charCodeAt(ia++) !== (words[wb] as string).charCodeAt(ib++)) return false;
  }
}

/**
 * `find_all_duplicate(words, n)`: walk the n-grams joined with **no** separator (so `("ab","c")` equals `("a","bc")`);
 * a repeat adds its length and skips n words. Keys are hashes checked against the real text on every hit; a string
 * whose hash is taken by a different string (a collision) goes to a map keyed by the string itself.
 */
export function allDuplicateChars(t: WordTable, n: number, hashes = prefixHashes(t)): number {
  const seen = new PairTable(Math.max(0, t.ids.length - n + 1));
  let collided: Set<string> | undefined;
  const total = t.ids.length;
  let repeated = 0;
  let idx = 0;
  while (idx < total - n + 1) {
    const i = idx * 6;
    const j = (idx + n) * 6;
    const a = ((hashes[j] as number) - Math.imul(Math.imul(hashes[i] as number, hashes[j + 2] as number), hashes[i + 4] as number)) | 0;
    const b = ((hashes[j + 1] as number) - Math.imul(Math.imul(hashes[i + 1] as number, hashes[j + 3] as number), hashes[i + 5] as number)) | 0;
    const first = seen.get(a, b);
    let dup: boolean;
    if (first < 0) {
      seen.set(a, b, idx);
      dup = false;
    } else if (sameConcat(t.words, first, idx, n)) dup = true;
    else {
      const str = t.words.slice(idx, idx + n).join('');
      collided ??= new Set();
      dup = collided.has(str);
      if (!dup) collided.add(str);
    }
    if (dup) {
      for (let k = idx; k < idx + n; k++) repeated += t.cpLens[k] as number;
      idx += n;
    } else idx += 1;
  }
  return repeated;
}

