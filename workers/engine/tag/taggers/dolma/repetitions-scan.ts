// Finds the matches of Dolma's `(.+?)(\s?\1){3,}` (Python `re` finditer semantics) without regex backtracking.
import { isPyWs } from './text.js';

/**
 * Longest repeated unit searched, in code points. Python tries every unit length up to the end of
 * the line at every position, which is quadratic per line (a long line without repetitions never
 * finishes). Bounding the unit keeps the scan linear; units longer than this are not reported
 * [deviation from Dolma, which has no bound].
 */
export const MAX_UNIT = 1000;
/** Units of at least this length are found through an index of K-grams; shorter ones are tried directly. */
const K = 8;
const BASE = 0x01000193;

/** A match in code points, scored by the unit's occurrences in it (`group(0).count(group(1))`). */
export interface Repetition {
  start: number;
  end: number;
  score: number;
}

export class RepetitionScanner {
  private readonly h: Uint32Array;
  private readonly pw: Uint32Array;
  private readonly next: Int32Array;
  /** kgram[i]: hash of the K-gram at i. */
  private readonly kgram: Uint32Array;

  constructor(private readonly cps: Int32Array) {
    const n = cps.length;
    this.h = new Uint32Array(n + 1);
    for (let i = 0; i < n; i++) this.h[i + 1] = (Math.imul(this.h[i]!, BASE) + cps[i]! + 1) >>> 0;
    this.pw = new Uint32Array(MAX_UNIT + 2);
    this.pw[0] = 1;
    for (let i = 1; i < this.pw.length; i++) this.pw[i] = Math.imul(this.pw[i - 1]!, BASE) >>> 0;
    // next[i]: the following position whose K-gram falls in the same bucket (-1 if none).
    const m = Math.max(n - K + 1, 0);
    this.next = new Int32Array(m).fill(-1);
    this.kgram = new Uint32Array(m);
    let bits = 8;
    while (bits < 22 && 1 << bits < n) bits++;
    const head = new Int32Array(1 << bits).fill(-1);
    for (let i = m - 1; i >= 0; i--) {
      const k = (this.kgram[i] = this.hash(i, K));
      const b = k >>> (32 - bits);
      this.next[i] = head[b]!;
      head[b] = i;
    }
  }

  private hash(i: number, len: number): number {
    return (this.h[i + len]! - Math.imul(this.h[i]!, this.pw[len]!)) >>> 0;
  }

  /** `cps[a:a+len] == cps[b:b+len]`, hash first for long units, always confirmed character by character. */
  private same(a: number, b: number, len: number): boolean {
    const { cps, h } = this;
    if (len > 16) {
      const p = this.pw[len]!;
      if ((h[a + len]! - Math.imul(h[a]!, p)) >>> 0 !== (h[b + len]! - Math.imul(h[b]!, p)) >>> 0) return false;
    }
    for (let k = 0; k < len; k++) if (cps[a + k] !== cps[b + k]) return false;
    return true;
  }

  /** One repetition `\s?\1` at p: with the whitespace (tried first, `\s?` is greedy) or without. */
  private rep(s: number, len: number, p: number, withWs: boolean, to: number): number {
    if (withWs) return p < to && isPyWs(this.cps[p]!) && p + 1 + len <= to && this.same(s, p + 1, len) ? p + 1 + len : -1;
    return p + len <= to && this.same(s, p, len) ? p + len : -1;
  }

  /**
   * End of the match with unit `cps[s:s+len]`, or -1. The first three repetitions are searched
   * depth-first in the engine's order (whitespace first); once three are in, the greedy loop only
   * extends and never backtracks, since the pattern ends there.
   */
  private chain(s: number, len: number, to: number): number {
    const p0 = s + len;
    for (let a = 0; a < 2; a++) {
      const p1 = this.rep(s, len, p0, a === 0, to);
      if (p1 < 0) continue;
      for (let b = 0; b < 2; b++) {
        const p2 = this.rep(s, len, p1, b === 0, to);
        if (p2 < 0) continue;
        for (let c = 0; c < 2; c++) {
          let p = this.rep(s, len, p2, c === 0, to);
          if (p < 0) continue;
          for (;;) {
            let q = this.rep(s, len, p, true, to);
            if (q < 0) q = this.rep(s, len, p, false, to);
            if (q < 0) return p;
            p = q;
          }
        }
      }
    }
    return -1;
  }

  /** Shortest unit at s with a match (the lazy `.+?`), as [len, end], or null. */
  private matchAt(s: number, lineEnd: number, to: number): [number, number] | null {
    const maxLen = Math.min(MAX_UNIT, lineEnd - s, Math.floor((to - s) / 4));
    const { cps } = this;
    const first = cps[s]!;
    for (let len = 1; len <= Math.min(K - 1, maxLen); len++) {
      // The first repetition must start with the unit's first character, right away or after whitespace.
      const c = cps[s + len]!;
      if (c !== first && !(isPyWs(c) && cps[s + len + 1] === first)) continue;
      const end = this.chain(s, len, to);
      if (end >= 0) return [len, end];
    }
    if (maxLen < K) return null;
    // A unit of length ≥ K reappears (its first K-gram) at t = s + len, or at t = s + len + 1 after
    // whitespace; a length is explored (both ways) once one of its first repetitions is confirmed.
    const { next, kgram } = this;
    const key = kgram[s]!;
    let last = K - 1;
    for (let t = next[s]!; t !== -1 && t <= s + maxLen + 1; t = next[t]!) {
      if (kgram[t] !== key) continue;
      for (let len = t - s - 1; len <= t - s; len++) {
        if (len <= last || len > maxLen || (len < t - s && !isPyWs(cps[t - 1]!)) || !this.same(s, t, len)) continue;
        last = len;
        const end = this.chain(s, len, to);
        if (end >= 0) return [len, end];
      }
    }
    return null;
  }

  /** finditer over `cps[from:to]`. */
  scan(from = 0, to = this.cps.length): Repetition[] {
    const { cps } = this;
    const out: Repetition[] = [];
    let lineEnd = from;
    for (let s = from; s < to; ) {
      if (lineEnd <= s) for (lineEnd = s; lineEnd < to && cps[lineEnd] !== 10; ) lineEnd++;
      if (cps[s] === 10) {
        s++;
        continue;
      }
      const m = this.matchAt(s, lineEnd, to);
      if (m === null) {
        s++;
        continue;
      }
      out.push({ start: s, end: m[1], score: this.count(s, m[0], m[1]) });
      s = m[1];
    }
    return out;
  }

  /** Non-overlapping occurrences of the unit `cps[s:s+len]` in `cps[s:end]` (KMP, so linear). */
  private count(s: number, len: number, end: number): number {
    const { cps } = this;
    const fail = new Int32Array(len);
    for (let i = 1, k = 0; i < len; i++) {
      while (k > 0 && cps[s + i] !== cps[s + k]) k = fail[k - 1]!;
      if (cps[s + i] === cps[s + k]) k++;
      fail[i] = k;
    }
    let found = 0;
    for (let i = s, k = 0; i < end; i++) {
      while (k > 0 && cps[i] !== cps[s + k]) k = fail[k - 1]!;
      if (cps[i] === cps[s + k]) k++;
      if (k === len) {
        found++;
        k = 0;
      }
    }
    return found;
  }
}
