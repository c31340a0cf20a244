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
 * equal word tuples and can be numbered level by level ((n-1)-gram id, word id) without building strings.
 */
export function topNgramChars(t: WordTable, ns: readonly number[]): Map<number, number | undefined> {
  const out = new Map<number, number | undefined>();
  const maxN = Math.max(0, ...ns);
  let ids: Int32Array = t.ids;
  let distinct = t.vocab;
  for (let n = 1; n <= maxN; n++) {
    if (n > 1) {
      const count = Math.max(0, t.ids.length - n + 1);
      const next = new Int32Array(count);
      const map = new PairTable(count);
      for (let i = 0; i < count; i++) {
        const a = ids[i] as number;
        const b = t.ids[i + n - 1] as number;
        let id = map.get(a, b);
        if (id < 0) map.set(a, b, (id = map.size));
        next[i] = id;
      }
      ids = next;
      distinct = map.size;
    }
    if (!ns.includes(n)) continue;
    out.set(n, ids.length === 0 ? undefined : topChars(t, ids, distinct, n));
  }
  return out;
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
  const at = first[best] as number;
  let len = n - 1;
  for (let k = 0; k < n; k++) len += t.cpLens[at + k] as number;
  return len * (counts[best] as number);
}

const B1 = 0x01000193;
const B2 = 0x5bd1e995;

/**
 * Per-word polynomial hashes mod 2^32 for two bases (Math.imul), with B^len; a window's hash folds its words, so it
 * is the hash of the concatenation. Collisions only cost time: every hit is checked against the words themselves.
 */
export function wordHashes(words: readonly string[]): Int32Array {
  const h = new Int32Array(words.length * 4);
  for (let i = 0; i < words.length; i++) {
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
    h[i * 4] = a;
    h[i * 4 + 1] = b;
    h[i * 4 + 2] = pa;
    h[i * 4 + 3] = pb;
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
export function allDuplicateChars(t: WordTable, n: number, hashes = wordHashes(t.words)): number {
  const seen = new PairTable(Math.max(0, t.ids.length - n + 1));
  let collided: Set<string> | undefined;
  const total = t.ids.length;
  let repeated = 0;
  let idx = 0;
  while (idx < total - n + 1) {
    let a = 0;
    let b = 0;
    for (let k = idx; k < idx + n; k++) {
      a = (Math.imul(a, hashes[k * 4 + 2] as number) + (hashes[k * 4] as number)) | 0;
      b = (Math.imul(b, hashes[k * 4 + 3] as number) + (hashes[k * 4 + 1] as number)) | 0;
    }
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

