// A port of spaCy v3's rule-based Tokenizer (tokenizer.pyx) for `blank("en")` / `blank("xx")`, linear in the text length.
import { findPrefix, findSuffix, generalPathData, infixRegex, mayHaveInfix } from './affixes.js';
import { baseExceptions, englishExceptions } from './exceptions.js';
import { ChunkCache } from './cache.js';
import { applySpecialMatcher, buildMatcher, findPatterns, type PatternEntry, type SpecialMatcher } from './matcher.js';
import { MATCHER_PATTERNS } from './matcher-data.js';
import { plainChunk, type SpecialHashes } from './fast-chunk.js';
import { nativeAddon, type NativeAddon } from '../../native-addon.js';
import { ALPHA, CLOSE, DOT_AFTER, HashFilter, INNER, OPEN, PLAIN, SPACE, UNIT_CLASS, hashRange } from './plain.js';
import { OffsetBuffer, type TokenOffsets } from './offsets.js';
import { urlMatch } from './url.js';

export type { TokenOffsets } from './offsets.js';

// Module-local copies: under tsx an imported binding is a getter call on every use, which the hot loop would pay.
const CLS = UNIT_CLASS;
const IS_SPACE = SPACE;
const range = hashRange;
const fastChunk = plainChunk;
/** Scratch entries kept between texts (8 MB for both buffers); more is dropped after the text that needed it. */
const MAX_KEPT = 1 << 19;

/** Whether s[lo, hi) has a `.` (every URL_MATCH host has one). */
function hasDot(s: string, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) if (s.charCodeAt(i) === 0x2e) return true;
  return false;
}

/** Appends the lengths of a special case's tokens to `out`. */
function pushLengths(rule: readonly string[], out: number[]): number[] {
  for (const t of rule) out.push(t.length);
  return out;
}

/** Python `str.isspace()` for one UTF-16 unit. */
export const isPySpace = (unit: number): boolean => CLS[unit] === IS_SPACE;

export class SpacyTokenizer {
  private readonly rules: Map<string, string[]>;
  private readonly maxRule: number;
  private readonly infix: RegExp;
  private readonly matcher: SpecialMatcher;
  /** Every special-case string (for `special` and the fast path) and the matcher's one-token patterns. */
  private readonly hashes: SpecialHashes;
  /** Chunk → token lengths, like spaCy's cache (which only ever repeats what tokenizing would give). */
  private readonly cache = new ChunkCache();
  /** Scratch for tokenize's two passes, reused from text to text (see OffsetBuffer) unless `busy` (a nested call). */
  private marked = new OffsetBuffer(1024);
  private split = new OffsetBuffer(1024);
  private busy = false;
  /** The scan pass in C (native/spacy.c) when the addon is built; null runs scanJs. */
  private readonly native: { addon: NativeAddon; handle: object } | null;

  constructor(lang: 'en' | 'xx') {
    this.rules = lang === 'en' ? englishExceptions() : baseExceptions();
    this.maxRule = Math.max(...[...this.rules.keys()].map((k) => k.length));
    this.infix = infixRegex(lang);
    const specials = new HashFilter(this.rules.keys());
    this.matcher = buildMatcher(MATCHER_PATTERNS[lang]);
    this.hashes = { specials, oneToken: this.matcher.oneToken, longest: this.maxRule };
    const addon = nativeAddon();
    const bits = Int32Array.of(PLAIN, INNER, OPEN, CLOSE, DOT_AFTER, SPACE, ALPHA, this.maxRule);
    const general = addon === null ? null : generalPathData(lang, this.matcher.longest);
    const n = (this.native =
      addon === null || general === null
        ? null
        : { addon, handle: addon.spacyScanner(CLS, bits, specials.slots, this.matcher.oneToken.slots, general.tables, general.params, this.matcher.texts.slots, general.lists) });
    // Made once: word-ids.ts asks for it for every document.
    this.nativeWords = n === null ? null : (text, tokens, ids, cpLens, first, starts, chars) => n.addon.spacyWords(n.handle, text, tokens.starts, tokens.ends, ids, cpLens, first, starts, chars);
  }

  /**
   * All tokens of `text`, as spaCy's `Tokenizer.__call__` produces them. One pass finds the chunks and splits the
   * plain ones (plainChunk), marking the others; a second splits those. Kept apart, the first pass's loop does not
   * take in the general path's code, so the JIT compiles it sooner and does not throw it away when that code meets a
   * new case.
   */
  tokenize(text: string): TokenOffsets {
    if (this.busy) return this.tokenizeWith(text, new OffsetBuffer(64), new OffsetBuffer(64));
    this.busy = true;
    try {
      return this.tokenizeWith(text, this.marked, this.split);
    } finally {
      this.busy = false;
      this.marked.length = 0;
      this.split.length = 0;
      // A huge text's scratch is not kept for the short ones after it.
      if (this.marked.starts.length > MAX_KEPT) this.marked = new OffsetBuffer(1024);
      if (this.split.starts.length > MAX_KEPT) this.split = new OffsetBuffer(1024);
    }
  }

  private tokenizeWith(text: string, marked: OffsetBuffer, out: OffsetBuffer): TokenOffsets {
    if (!this.scan(text, marked, out)) return marked.copy();
    return this.native === null ? this.splitMarked(text, marked, out) : this.expandNative(text, marked, out);
  }

  /**
   * The C addon's word numbering (datatrove/word-ids.ts's Builder) bound to this tokenizer's unit classes, or null
   * without the addon. It fills the arrays it is given; see NativeAddon.spacyWords.
   */
  readonly nativeWords: ((text: string, tokens: TokenOffsets, ids: Int32Array, cpLens: Int32Array, first: Int32Array, starts: Int32Array, chars: Uint16Array) => [number, number]) | null;

  /**
   * Whitespace runs and plain chunks as tokens, other chunks as one entry with end `~end`; whether there were any.
   * In C, `scratch.starts` receives the number of marked chunks and their entries' indices (see expandNative).
   */
  private scan(text: string, out: OffsetBuffer, scratch: OffsetBuffer): boolean {
    if (this.native === null) return this.scanJs(text, out);
    // Every entry covers a unit or more: room for text.length entries is enough. The scratch holds the marked
    // entries' indices (text.length + 1) and then their token lengths (a count and a length per token, at most
    // text.length + the number of marked chunks).
    out.reserve(text.length);
    scratch.reserve(2 * text.length + 2);
    out.length = this.native.addon.spacyScan(this.native.handle, text, out.starts, out.ends, scratch.starts);
    return (scratch.starts[0] as number) > 0;
  }

  /**
   * splitMarked with the C addon: the marked chunks' token lengths found here (the chunks the C general path and its
   * cache left to the JavaScript), then the entries copied and the marked ones replaced in C, straight into the
   * result's arrays, and those chunks cached in C.
   */
  private expandNative(text: string, marked: OffsetBuffer, scratch: OffsetBuffer): TokenOffsets {
    const { addon, handle } = this.native!;
    const at = scratch.starts;
    const lens = scratch.ends;
    const count = at[0] as number;
    let l = 0;
    let total = marked.length - count;
    for (let k = 1; k <= count; k++) {
      const e = at[k] as number;
      const lengths = this.lengths(text, marked.starts[e] as number, ~(marked.ends[e] as number));
      lens[l++] = lengths.length;
      for (let t = 0; t < lengths.length; t++) lens[l++] = lengths[t] as number;
      total += lengths.length;
    }
    const both = new Int32Array(2 * total);
    const starts = both.subarray(0, total);
    const ends = both.subarray(total);
    addon.spacyExpand(marked.starts, marked.ends, marked.length, lens.subarray(0, l), starts, ends, handle);
    return { starts, ends };
  }

  /** scan in JavaScript: the reference, and the path without the addon. */
  scanJs(text: string, out: OffsetBuffer): boolean {
    const n = text.length;
    const cls = CLS;
    let marked = false;
    let i = 0;
    while (i < n) {
      const a = i;
      if (cls[text.charCodeAt(i)] === IS_SPACE) {
        // A whitespace run is never split: no affix, URL or infix rule matches whitespace.
        while (++i < n && cls[text.charCodeAt(i)] === IS_SPACE);
        out.push(a, i);
        continue;
      }
      i = fastChunk(text, a, cls, this.hashes, out);
      if (i < 0) {
        i = a + 1;
        while (i < n && cls[text.charCodeAt(i)] !== IS_SPACE) i++;
        out.push(a, ~i);
        marked = true;
      }
      // One space after a token is its trailing whitespace, not a token.
      if (i < n && text.charCodeAt(i) === 0x20) i++;
    }
    return marked;
  }

  /** The entries of `marked` with the marked chunks split the general way. */
  private splitMarked(text: string, marked: OffsetBuffer, out: OffsetBuffer): TokenOffsets {
    const { starts, ends } = marked;
    for (let k = 0; k < marked.length; k++) {
      // The entries up to the next marked chunk are tokens already: copied as one block.
      let j = k;
      while (j < marked.length && (ends[j] as number) >= 0) j++;
      if (j > k) out.append(marked, k, j);
      if (j === marked.length) break;
      k = j;
      const a = starts[k] as number;
      const b = ends[k] as number;
      const lengths = this.lengths(text, a, ~b);
      let at = a;
      for (let t = 0; t < lengths.length; t++) {
        const end = at + (lengths[t] as number);
        out.push(at, end);
        at = end;
      }
    }
    return out.copy();
  }

  /** The special case spelled by s[lo, hi); the hash filter spares the slice and lookup for nearly all misses. */
  private special(s: string, lo: number, hi: number): string[] | undefined {
    if (hi - lo > this.maxRule) return undefined;
    return this.hashes.specials.mayHave(range(s, lo, hi), hi - lo) ? this.rules.get(s.slice(lo, hi)) : undefined;
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

  private lengths(s: string, lo: number, hi: number): readonly number[] {
    let lengths = this.cache.get(s, lo, hi);
    if (lengths === undefined) {
      const rule = this.special(s, lo, hi);
      // Pushed, not mapped: map makes holey arrays, and one array shape keeps the callers' compiled code valid.
      lengths = rule ? pushLengths(rule, []) : this.splitChunk(s, lo, hi, true);
      if (lengths.length > 1) lengths = applySpecialMatcher(this.matcher, s, lo, lengths, this.rules);
      this.cache.set(s, lo, hi, lengths);
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
      if (rule) pushLengths(rule, out);
      else if (!hasDot(s, lo, hi) || !urlMatch(s.slice(lo, hi))) this.infixes(s, lo, hi, out);
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

  /**
   * The special-case matcher's patterns as upstream finds them, from this tokenizer's rules and affix splitting:
   * what `MATCHER_PATTERNS` (generated) must equal.
   */
  findPatterns(): PatternEntry[] {
    return findPatterns(
      this.rules,
      isPySpace,
      (s) => findPrefix(s, 0, s.length) > 0 || findSuffix(s, 0, s.length) > 0 || this.hasInfix(s),
      // `_tokenize_affixes(string, False)` for one special-case string (its pattern for the special-case matcher).
      (s) => this.splitChunk(s, 0, s.length, false),
    );
  }
}
