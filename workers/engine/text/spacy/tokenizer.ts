// A port of spaCy v3's rule-based Tokenizer (tokenizer.pyx) for `blank("en")` / `blank("xx")`, linear in the text length.
import { findPrefix, findSuffix, infixRegex, mayHaveInfix } from './affixes.js';
import { baseExceptions, englishExceptions } from './exceptions.js';
import { applySpecialMatcher, buildMatcher, type SpecialMatcher } from './matcher.js';
import { urlMatch } from './url.js';

/** Token boundaries as UTF-16 offsets; whitespace tokens (runs other than one trailing space) included, like spaCy. */
export interface TokenOffsets {
  starts: Int32Array;
  ends: Int32Array;
}

/** Growable pair of offset arrays (typed, so ten million tokens do not churn the garbage collector). */
class OffsetBuffer {
  starts: Int32Array;
  ends: Int32Array;
  length = 0;

  /** Sized to the text (about one token per 4 units): many callers tokenize one short line at a time. */
  constructor(textLength: number) {
    const size = Math.min(1024, (textLength >> 2) + 8);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
  }

  push(start: number, end: number): void {
    if (this.length === this.starts.length) {
      const grow = (a: Int32Array) => {
        const b = new Int32Array(a.length * 2);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts);
      this.ends = grow(this.ends);
    }
    this.starts[this.length] = start;
    this.ends[this.length++] = end;
  }

  done(): TokenOffsets {
    return { starts: this.starts.subarray(0, this.length), ends: this.ends.subarray(0, this.length) };
  }
}

/** Python `str.isspace()` for one UTF-16 unit (all 29 such characters are in the BMP). */
const WS = new Uint8Array(0x10000);
for (const c of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000]) WS[c] = 1;
for (let c = 0x2000; c <= 0x200a; c++) WS[c] = 1;
export const isPySpace = (unit: number): boolean => WS[unit] === 1;

const CACHE_LIMIT = 200_000;
const CACHE_KEY_MAX = 64;

export class SpacyTokenizer {
  private readonly rules: Map<string, string[]>;
  private readonly maxRule: number;
  private readonly infix: RegExp;
  private readonly matcher: SpecialMatcher;
  /** Chunk → token lengths, like spaCy's cache (which only ever repeats what tokenizing would give). */
  private cache = new Map<string, number[]>();

  constructor(lang: 'en' | 'xx') {
    this.rules = lang === 'en' ? englishExceptions() : baseExceptions();
    this.maxRule = Math.max(...[...this.rules.keys()].map((k) => k.length));
    this.infix = infixRegex(lang);
    this.matcher = buildMatcher(
      this.rules,
      isPySpace,
      (s) => findPrefix(s, 0, s.length) > 0 || findSuffix(s, 0, s.length) > 0 || this.hasInfix(s),
      (s) => this.affixOnly(s),
    );
  }

  /** All tokens of `text`, as spaCy's `Tokenizer.__call__` produces them. */
  tokenize(text: string): TokenOffsets {
    const n = text.length;
    const out = new OffsetBuffer(n);
    if (n === 0) return out.done();
    let inWs = isPySpace(text.charCodeAt(0));
    let start = 0;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (isPySpace(c) === inWs) continue;
      if (start < i) this.chunk(text, start, i, inWs, out);
      start = c === 0x20 ? i + 1 : i;
      inWs = !inWs;
    }
    if (start < n) this.chunk(text, start, n, inWs, out);
    return out.done();
  }

  private special(s: string, lo: number, hi: number): string[] | undefined {
    return hi - lo <= this.maxRule ? this.rules.get(s.slice(lo, hi)) : undefined;
  }

  private chunk(s: string, lo: number, hi: number, ws: boolean, out: OffsetBuffer): void {
    if (ws) {
      // A whitespace run is never split: no affix, URL or infix rule matches whitespace.
      out.push(lo, hi);
      return;
    }
    let at = lo;
    for (const len of this.lengths(s, lo, hi)) {
      out.push(at, at + len);
      at += len;
    }
  }

  /**
   * Token lengths of a whitespace-free chunk, as `tokenize` splits it (spaCy tokenizes each whitespace-delimited
   * substring on its own, so a chunk's tokens never depend on its neighbours). For fast paths that find chunks
   * themselves.
   */
  chunkLengths(chunk: string): readonly number[] {
    return this.lengths(chunk, 0, chunk.length);
  }

  /** The special-case strings (tokenizer exceptions): chunks that may tokenize differently from their affix rules. */
  exceptionKeys(): IterableIterator<string> {
    return this.rules.keys();
  }

  private lengths(s: string, lo: number, hi: number): number[] {
    const key = hi - lo <= CACHE_KEY_MAX ? s.slice(lo, hi) : null;
    let lengths = key === null ? undefined : this.cache.get(key);
    if (lengths === undefined) {
      const rule = this.special(s, lo, hi);
      lengths = rule ? rule.map((t) => t.length) : this.splitChunk(s, lo, hi, true);
      if (lengths.length > 1) lengths = applySpecialMatcher(this.matcher, s, lo, lengths, this.rules);
      if (key !== null) {
        if (this.cache.size >= CACHE_LIMIT) this.cache = new Map();
        this.cache.set(key, lengths);
      }
    }
    return lengths;
  }

  /** `_split_affixes` then `_attach_tokens` for one non-whitespace chunk; returns token lengths. */
  private splitChunk(s: string, lo: number, hi: number, specials: boolean): number[] {
    const prefixes: number[] = [];
    const suffixes: number[] = [];
    let last = -1;
    while (hi > lo && hi - lo !== last) {
      if (specials && this.special(s, lo, hi)) break;
      last = hi - lo;
      const pre = findPrefix(s, lo, hi);
      if (pre && specials && lo + pre < hi && this.special(s, lo + pre, hi)) {
        prefixes.push(pre);
        lo += pre;
        break;
      }
      const suf = findSuffix(s, lo + pre, hi);
      if (suf && specials && hi - suf > lo && this.special(s, lo, hi - suf)) {
        suffixes.push(suf);
        hi -= suf;
        break;
      }
      if (pre && suf && pre + suf <= hi - lo) {
        prefixes.push(pre);
        suffixes.push(suf);
        lo += pre;
        hi -= suf;
      } else if (pre) {
        prefixes.push(pre);
        lo += pre;
      } else if (suf) {
        suffixes.push(suf);
        hi -= suf;
      }
    }
    const out = prefixes;
    if (hi > lo) {
      const rule = specials ? this.special(s, lo, hi) : undefined;
      if (rule) for (const t of rule) out.push(t.length);
      else if (!urlMatch(s.slice(lo, hi))) this.infixes(s, lo, hi, out);
      else out.push(hi - lo);
    }
    for (let k = suffixes.length - 1; k >= 0; k--) out.push(suffixes[k] as number);
    return out;
  }

  private infixes(s: string, lo: number, hi: number, out: number[]): void {
    if (!mayHaveInfix(s, lo, hi)) {
      out.push(hi - lo);
      return;
    }
    const sub = s.slice(lo, hi);
    let start = 0;
    this.infix.lastIndex = 0;
    for (let m = this.infix.exec(sub); m !== null; m = this.infix.exec(sub)) {
      const a = m.index;
      const b = a + m[0].length;
      if (a === 0) continue; // an infix at the very start is not split off (upstream `start_before_infixes`)
      if (a !== start) out.push(a - start);
      if (b !== a) out.push(b - a);
      start = b;
    }
    if (start < sub.length) out.push(sub.length - start);
  }

  private hasInfix(s: string): boolean {
    this.infix.lastIndex = 0;
    return this.infix.test(s);
  }

  /** `_tokenize_affixes(string, False)` for one special-case string (its pattern for the special-case matcher). */
  private affixOnly(str: string): number[] {
    return this.splitChunk(str, 0, str.length, false);
  }
}
