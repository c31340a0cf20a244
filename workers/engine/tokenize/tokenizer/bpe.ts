// Byte-level BPE merging on integer ids: lowest-rank adjacent pair first, leftmost on ties (HF tokenizers' and tiktoken's rule).
import { AssayError } from '../../errors.js';
import { BYTE_TO_CHAR } from './bytes.js';
import { MergeHeap } from './heap.js';

const NONE = 0x7fffffff;
/** Words up to this many bytes merge by rescanning an array; longer ones use a heap (n log n, never quadratic). */
const SCAN_LIMIT = 48;

export interface BpeTables {
  /** Token (in the byte-level alphabet) → id. */
  vocab: ReadonlyMap<string, number>;
  /**
   * HF `model.merges` in rank order (`"a b"` or `["a", "b"]`); or `'concatenation'` for tiktoken
   * ranks, where a pair merges with the rank (= id) of the token it forms.
   */
  merges: readonly (string | readonly string[])[] | 'concatenation';
  /** HF `ignore_merges` (always true for tiktoken): a whole word found in the vocabulary is one token. */
  ignoreMerges: boolean;
  /** Names the source in load errors. */
  source: string;
}

export class BpeModel {
  readonly vocab: ReadonlyMap<string, number>;
  readonly ignoreMerges: boolean;
  /** Id of each single-byte token. */
  readonly byteIds = new Int32Array(256);
  readonly #pairs = new Map<number, number>();
  readonly #mergedByRank: Int32Array;
  readonly #stride: number;
  #syms = new Int32Array(64);
  #ranks = new Int32Array(64);
  readonly #heap = new MergeHeap();

  constructor(t: BpeTables) {
    this.vocab = t.vocab;
    this.ignoreMerges = t.ignoreMerges;
    let maxId = 0;
    for (const id of t.vocab.values()) maxId = Math.max(maxId, id);
    this.#stride = maxId + 1;
    for (let b = 0; b < 256; b++) {
      const id = t.vocab.get(BYTE_TO_CHAR[b] as string);
      this.byteIds[b] = id ?? -1;
      // Bytes that never occur in UTF-8 (C0, C1, F5–FF) may be missing (GPT-NeoX drops them).
      if (id === undefined && !(b === 0xc0 || b === 0xc1 || b >= 0xf5)) throw new AssayError('CONFIG', `not a byte-level BPE vocabulary: byte 0x${b.toString(16)} has no token`, { file: t.source });
    }
    if (t.merges === 'concatenation') {
      this.#mergedByRank = new Int32Array(this.#stride);
      for (const [token, id] of t.vocab) {
        this.#mergedByRank[id] = id;
        // Every split of a token into two tokens is a pair that forms it, with the token's rank.
        for (let k = 1; k < token.length; k++) {
          const a = t.vocab.get(token.slice(0, k));
          const b = a === undefined ? undefined : t.vocab.get(token.slice(k));
          if (a !== undefined && b !== undefined) this.#pairs.set(a * this.#stride + b, id);
        }
      }
    } else {
      this.#mergedByRank = new Int32Array(t.merges.length);
      t.merges.forEach((m, rank) => {
        const [left, right] = typeof m === 'string' ? splitMerge(m, rank, t.source) : (m as [string, string]);
        const a = t.vocab.get(left);
        const b = t.vocab.get(right);
        const merged = t.vocab.get(left + right);
        if (a === undefined || b === undefined || merged === undefined) {
          throw new AssayError('CONFIG', `merge ${rank} (${JSON.stringify(m)}) uses a token missing from the vocabulary`, { file: t.source, field: 'model.merges' });
        }
        // A repeated pair takes its last rank, as the Rust loader's map collection (and HF's JS port) does.
        this.#pairs.set(a * this.#stride + b, rank);
        this.#mergedByRank[rank] = merged;
      });
    }
  }

  #rank(a: number, b: number): number {
    return this.#pairs.get(a * this.#stride + b) ?? NONE;
  }

  /** Appends the ids of one pre-token given as UTF-8 bytes `bytes[0..n)`. */
  encodeBytes(bytes: Uint8Array, n: number, out: number[]): void {
    if (n === 0) return;
    if (n === 1) {
      out.push(this.byteIds[bytes[0] as number] as number);
      return;
    }
    if (this.ignoreMerges) {
      let s = '';
      for (let i = 0; i < n; i++) s += BYTE_TO_CHAR[bytes[i] as number] as string;
      const whole = this.vocab.get(s);
      if (whole !== undefined) {
        out.push(whole);
        return;
      }
    }
    if (this.#syms.length < n) {
      this.#syms = new Int32Array(n * 2);
      this.#ranks = new Int32Array(n * 2);
    }
    const syms = this.#syms;
    for (let i = 0; i < n; i++) syms[i] = this.byteIds[bytes[i] as number] as number;
    if (n <= SCAN_LIMIT) this.#mergeByScan(n, out);
    else this.#mergeByHeap(n, out);
  }

  #mergeByScan(n: number, out: number[]): void {
    const syms = this.#syms;
    const ranks = this.#ranks;
    let len = n;
    for (let i = 0; i < len - 1; i++) ranks[i] = this.#rank(syms[i] as number, syms[i + 1] as number);
    for (;;) {
      let best = NONE;
      let at = -1;
      for (let i = 0; i < len - 1; i++) {
        const r = ranks[i] as number;
        if (r < best) {
          best = r;
          at = i;
        }
      }
      if (at < 0) break;
      syms[at] = this.#mergedByRank[best] as number;
      syms.copyWithin(at + 1, at + 2, len);
      ranks.copyWithin(at, at + 1, len - 1);
      len--;
      if (at > 0) ranks[at - 1] = this.#rank(syms[at - 1] as number, syms[at] as number);
      if (at < len - 1) ranks[at] = this.#rank(syms[at] as number, syms[at + 1] as number);
    }
    for (let i = 0; i < len; i++) out.push(syms[i] as number);
  }

  /** A doubly linked list of symbols and a heap of (rank, position); stale entries are skipped on pop. */
  #mergeByHeap(n: number, out: number[]): void {
    const syms = this.#syms;
    const next = new Int32Array(n);
    const prev = new Int32Array(n);
    const heap = this.#heap;
    heap.clear();
    for (let i = 0; i < n; i++) {
      next[i] = i + 1 < n ? i + 1 : -1;
      prev[i] = i - 1;
      if (i + 1 < n) {
        const r = this.#rank(syms[i] as number, syms[i + 1] as number);
        if (r !== NONE) heap.push(r, i);
      }
    }
    while (heap.size > 0) {
      const r = heap.topRank();
      const i = heap.pop();
      const j = next[i] as number;
      if (syms[i] === -1 || j < 0 || this.#rank(syms[i] as number, syms[j] as number) !== r) continue;
      syms[i] = this.#mergedByRank[r] as number;
      syms[j] = -1;
      const k = next[j] as number;
      next[i] = k;
      if (k >= 0) prev[k] = i;
      const p = prev[i] as number;
      if (p >= 0) {
        const rp = this.#rank(syms[p] as number, syms[i] as number);
        if (rp !== NONE) heap.push(rp, p);
      }
      if (k >= 0) {
        const rk = this.#rank(syms[i] as number, syms[k] as number);
        if (rk !== NONE) heap.push(rk, i);
      }
    }
    for (let i = 0; i >= 0; i = next[i] as number) out.push(syms[i] as number);
  }
}

function splitMerge(m: string, rank: number, source: string): [string, string] {
  const parts = m.split(' ');
  if (parts.length !== 2) throw new AssayError('CONFIG', `merge ${rank} (${JSON.stringify(m)}) is not two tokens separated by one space`, { file: source, field: 'model.merges' });
  return parts as [string, string];
}
