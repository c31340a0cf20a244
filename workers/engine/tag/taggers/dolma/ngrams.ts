// Word n-gram counting for gopher_v1 in linear time: n-grams are interned as (previous (n-1)-gram id, word id) pairs.

/**
 * Open-addressing map from an id pair to a dense id. Python's Counter over word tuples is what this
 * replaces; interning pairs avoids building an n-word string per position (gigabytes at 10 MB).
 */
class PairTable {
  /** Slots of [left, right, id + 1] side by side, so a probe touches one cache line. */
  private slots: Int32Array;
  private mask: number;
  private size = 0;

  /** Sized for `expected` keys at most half full, so a short document does not clear a large table. */
  constructor(expected: number) {
    let cap = 16;
    while (cap < expected * 2) cap *= 2;
    this.slots = new Int32Array(cap * 4);
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
        if (++this.size * 2 > mask) this.grow();
        return fresh;
      }
      if (slots[k] === a && slots[k + 1] === b) return v - 1;
    }
  }

  /** Doubling keeps the table at most half full and sized by distinct keys, not positions. */
  private grow(): void {
    const old = this.slots;
    this.mask = this.mask * 2 + 1;
    this.slots = new Int32Array((this.mask + 1) * 4);
    for (let k = 0; k < old.length; k += 4) {
      if (old[k + 2] === 0) continue;
      let slot = hash(old[k]!, old[k + 1]!) & this.mask;
      while (this.slots[(slot << 2) + 2] !== 0) slot = (slot + 1) & this.mask;
      const j = slot << 2;
      this.slots[j] = old[k]!;
      this.slots[j + 1] = old[k + 1]!;
      this.slots[j + 2] = old[k + 2]!;
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

/**
 * Stats for every order 2..`maxN` that has at least one n-gram (gopher.py skips empty Counters).
 * `wordIds[i]` is the interned id of word i (dense, in first-occurrence order), `wordLen[id]` its
 * length. An n-gram whose (n-1)-gram prefix occurs once is itself unique: it is marked -1 and never
 * looked up, and since a unique n-gram adds only its characters to the total, the total is taken
 * from prefix sums. Only n-grams with a repeated prefix are interned, in position order, so among
 * them ids follow first occurrence, which is Counter's order for most_common ties.
 */
export function ngramStats(wordIds: Int32Array, wordLen: Int32Array, maxN: number): NgramStats[] {
  const w = wordIds.length;
  const out: NgramStats[] = [];
  /** prefix[i] = characters of words 0..i-1; twice[k] = Σ prefix[0..k-1] (exact: integers far below 2^53). */
  const prefix = new Float64Array(w + 1);
  for (let i = 0; i < w; i++) prefix[i + 1] = prefix[i]! + wordLen[wordIds[i]!]!;
  const twice = new Float64Array(w + 2);
  for (let k = 0; k <= w; k++) twice[k + 1] = twice[k]! + prefix[k]!;
  const wordCounts = new Int32Array(wordLen.length);
  for (let i = 0; i < w; i++) wordCounts[wordIds[i]!]!++;
  let prev = new Int32Array(w);
  for (let i = 0; i < w; i++) prev[i] = wordCounts[wordIds[i]!]! > 1 ? wordIds[i]! : -1;
  for (let n = 2; n <= maxN; n++) {
    const m = w - n + 1;
    if (m <= 0) break;
    let repeated = 0;
    for (let i = 0; i < m; i++) if (prev[i] !== -1) repeated++;
    if (repeated === 0) {
      allUnique(wordIds, wordLen, n, maxN, out);
      break;
    }
    const table = new PairTable(repeated);
    const cur = new Int32Array(m);
    const counts = new Int32Array(repeated);
    const first = new Int32Array(repeated);
    let fresh = 0;
    for (let i = 0; i < m; i++) {
      const p = prev[i]!;
      if (p === -1) {
        cur[i] = -1;
        continue;
      }
      const id = table.intern(p, wordIds[i + n - 1]!, fresh);
      if (id === fresh) first[fresh++] = i;
      counts[id]!++;
      cur[i] = id;
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
    // Σ over positions i < m of prefix[i + n] − prefix[i]: every n-gram occurrence's characters.
    const total = twice[m + n]! - twice[n]! - twice[m]!;
    const top = best === -1 ? prefix[n]! : bestCount * (prefix[first[best]! + n]! - prefix[first[best]!]!);
    out.push({ n, mostCommonChars: top, duplicateChars: dup, totalChars: total });
    for (let i = 0; i < m; i++) if (cur[i] !== -1 && counts[cur[i]!] === 1) cur[i] = -1;
    prev = cur;
  }
  return out;
}

/**
 * Orders `from..maxN` once no (from-1)-gram repeats: every n-gram occurs once, so the most common
 * is the first one and nothing is duplicated; only the window sums of word lengths remain.
 */
function allUnique(wordIds: Int32Array, wordLen: Int32Array, from: number, maxN: number, out: NgramStats[]): void {
  const w = wordIds.length;
  const prefix = new Float64Array(w + 1);
  for (let i = 0; i < w; i++) prefix[i + 1] = prefix[i]! + wordLen[wordIds[i]!]!;
  for (let n = from; n <= maxN && n <= w; n++) {
    let total = 0;
    for (let i = 0; i + n <= w; i++) total += prefix[i + n]! - prefix[i]!;
    out.push({ n, mostCommonChars: prefix[n]!, duplicateChars: 0, totalChars: total });
  }
}
