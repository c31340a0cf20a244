// The optional C addon (native/*.c, built by scripts/build-native.mjs): found beside the sources or the bundles.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** native/assay.h's ASSAY_ABI: the version of the exports below. */
export const NATIVE_ABI = 19;

/** What native/*.c export (see their comments for the arguments). */
export interface NativeAddon {
  abi: number;
  create(
    params: Int32Array,
    matrix: Float32Array | null,
    wordBytes: Uint8Array,
    wordAt: Int32Array,
    wordIds: Int32Array,
    prunePairs: Int32Array | null,
    ...quantized: [] | [codes: Uint8Array, centroids: Float32Array, norms: Float32Array | null, quantizer: Int32Array]
  ): object;
  embed(handle: object, line: Uint8Array, end: number, hidden: Float32Array): number;
  /** dolma/ngrams.ts's stats: [n, mostCommonChars, duplicateChars, totalChars] per order into `out`; the orders written. */
  ngramStats(wordIds: Int32Array, wordLen: Int32Array, maxN: number, out: Float64Array): number;
  /** datatrove/dup-ngrams.ts's allDuplicateChars: each n's repeated code points into `out`. */
  allDuplicateChars(chars: Uint16Array, starts: Int32Array, ids: Int32Array, cpLens: Int32Array, count: number, ns: Int32Array, out: Float64Array): void;
  /** datatrove/ngrams.ts's topNgramChars: the value for each n into `out`, NaN where there is no n-gram. */
  topNgramChars(ids: Int32Array, count: number, cpLens: Int32Array, ns: Int32Array, out: Float64Array): void;
  /** dolma/gopher-stats.ts's gopherCounts: see native/gopher.c for what `out` and the arrays receive; [orders, distinct words, pending words]. */
  gopherStats(text: string, out: Float64Array, firstStart: Int32Array, firstEnd: Int32Array, pending: Int32Array, pendingCount: Int32Array): [number, number, number];
  /** text/spacy's scan pass: classes = plain.ts's UNIT_CLASS, bits = [PLAIN, INNER, OPEN, CLOSE, DOT_AFTER, SPACE, ALPHA, longest special case]. */
  spacyScanner(
    classes: Uint8Array,
    bits: Int32Array,
    specials: Int32Array,
    oneToken: Int32Array,
    ...general: [] | [tables: Uint8Array[], params: Int32Array, texts: Int32Array, lists: string[]]
  ): object;
  /** SpacyTokenizer's scan into starts/ends (room for text.length entries): the entries; markedAt = [marked chunks, their entries' indices...]. */
  spacyScan(handle: object, text: string, starts: Int32Array, ends: Int32Array, markedAt: Int32Array): number;
  /** splitMarked: the entries with each marked one replaced by its tokens, lengths = [count, length...] per marked chunk; the tokens. */
  spacyExpand(starts: Int32Array, ends: Int32Array, entries: number, lengths: Int32Array, outStarts: Int32Array, outEnds: Int32Array, scanner?: object): number;
  /** datatrove/word-ids.ts's Builder over the tokens not starting with whitespace: [words, distinct words]. */
  spacyWords(handle: object, text: string, starts: Int32Array, ends: Int32Array, ids: Int32Array, cpLens: Int32Array, first: Int32Array, wordStarts: Int32Array, chars: Uint16Array): [number, number];
  /** text/duplicates.ts's duplicatesOf: of `count` ranges (a, b pairs), out[0] = those repeating an earlier one, out[1] = their code points. */
  rangeDuplicates(text: string, ranges: Int32Array, count: number, out: Float64Array): void;
  /**
   * datatrove/gopher-repetition.ts's paragraph and line duplicates (see native/ranges.c): out = [paragraphs, duplicated,
   * their code points, lines, duplicated, their code points]; lines = splitlineOffsets' triples (v0.2.0) or null (HEAD).
   */
  repetitionDuplicates(text: string, a: number, b: number, lines: Int32Array | null, out: Float64Array): void;
  /**
   * datatrove/fineweb-quality.ts's line pass (see native/fineweb.c): out = [lines, non-blank, ending with a stop, short,
   * duplicated code points, code points without "\n"]; stops null = TERMINAL_PUNCTUATION (terminal, astral pairs).
   */
  finewebLines(
    text: string,
    head: boolean,
    terminal: Uint8Array,
    astral: Int32Array,
    stops: Uint16Array | null,
    stopAt: Int32Array,
    shortLength: number,
    out: Float64Array,
  ): void;
  /** mix/attr-lines.ts's reader: each attribute line's members as offsets into it (see native/attrs.c); the ints used, -1: out or nums too small. */
  attrLines(lines: readonly unknown[], count: number, out: Int32Array, nums: Float64Array): number;
  /** mix/doc-lines.ts's reader: each document line's top-level members as offsets into it (see native/attrs.c); the ints used, -1: out too small. */
  docLines(lines: readonly unknown[], count: number, out: Int32Array): number;
  /** tag/rows.ts's writer: a handle holding the attribute keys rowKey registers (see native/rows.c). */
  rowWriter(): object;
  /** A key's id for rowAttrs (keys are [A-Za-z0-9_]+, shorter than 1,000), or -1 when the writer holds too many. */
  rowKey(handle: object, key: string): number;
  /** The attributes object of entries [key, start, end, score] × count as JSON text, or null when a number needs the JavaScript. */
  rowAttrs(handle: object, entries: Float64Array, count: number): string | null;
  /**
   * dolma/pii.ts's fastPiiSpans (see native/pii.c): ips = [start, end] per IPv4 match, nd = Unicode Nd as [lo, hi]
   * pairs; the spans' number, written to out as [type, start, end] while they fit; sums = [text, spans] code points.
   */
  piiFast(text: string, ips: Int32Array, nd: Int32Array, out: Int32Array, sums: Float64Array): number;
  /** A copy of PhraseMatcher's table for c4Lines, checked once (see native/c4.c). */
  c4Phrases(delta: Int32Array): object;
  /**
   * dolma/c4.ts's c4V2Spans loop over the lowered text (see native/c4.c): the line spans' number, written to out as
   * [type, start, end] while they fit; info = [lines, whether a phrase of the handle's table occurs].
   */
  c4Lines(phrases: object, lower: string, out: Int32Array, info: Int32Array): number;
  /** datatrove/gopher-quality.ts's tables for gopherQuality: punctuation by unit, letters as [lo, hi] pairs, the stop words. */
  gopherQualityTables(punct: Uint8Array, alpha: Uint16Array, stopChars: Uint16Array, stopAt: Int32Array): object;
  /**
   * datatrove/gopher-quality.ts's counts (see native/gopher-quality.c for `out`); the words with a surrogate pair,
   * written to astral as [id, occurrences], are left to the JavaScript: their number.
   */
  gopherQuality(
    tables: object,
    text: string,
    lines: Int32Array,
    chars: Uint16Array,
    starts: Int32Array,
    ids: Int32Array,
    first: Int32Array,
    cpLens: Int32Array,
    count: number,
    vocab: number,
    out: Float64Array,
    astral: Int32Array,
  ): number;
  /**
   * datatrove/line-edits.ts's lineEdits (see native/line-edits.c): units = [start, end, next, a, b, flags] rows, cuts =
   * [x, y] pairs; the spans' number, written to out as [type, start, end] while they fit.
   */
  lineEdits(text: string, units: Int32Array, cuts: Int32Array, paragraphs: boolean, strip: boolean, out: Int32Array): number;
  /** datatrove/c4-quality.ts's tables for c4Quality: \p{P} as [lo, hi] pairs, the one-unit sentence ends, Unicode Nd pairs. */
  c4QualityTables(punct: Uint16Array, sentenceEnds: Uint16Array, nd: Int32Array): object;
  /**
   * datatrove/c4-quality.ts's c4Quality for HEAD's split lines (see native/c4-quality.c): the rewritten text, or null
   * for the JavaScript; units receives line-edits rows, cuts the kept citations, edited the lines left to count, info
   * the counts.
   */
  c4Quality(
    tables: object,
    text: string,
    lines: Int32Array,
    starts: Int32Array,
    ends: Int32Array,
    options: Int32Array,
    units: Int32Array,
    info: Float64Array,
    cuts: Int32Array,
    edited: Int32Array,
  ): string | null;
}

export const ADDON_FILE = join('native', 'build', 'assay_native.node');

export interface AddonStatus {
  addon: NativeAddon | null;
  /** Where it was found (null: not built, or not looked for). */
  file: string | null;
  /** Why it is not used: `ASSAY_NATIVE=0`, not built, or the error loading it gave. */
  reason: string | null;
}

let status: AddonStatus | undefined;

/**
 * The addon, loaded once per process (or worker thread), or null: `ASSAY_NATIVE=0` turns it off (tests and benches
 * compare the two paths), and a machine that could not build it runs the JavaScript, which gives the same results.
 * `ASSAY_REQUIRE_NATIVE=1` (CI) makes a missing addon an error instead, so that no process falls back unnoticed.
 */
export function nativeAddon(): NativeAddon | null {
  const s = addonStatus();
  if (s.addon === null && s.reason !== 'ASSAY_NATIVE=0' && process.env.ASSAY_REQUIRE_NATIVE === '1') {
    throw new Error(`ASSAY_REQUIRE_NATIVE=1 but the C addon is not loaded: ${s.reason ?? ''}`);
  }
  return s.addon;
}

export function addonStatus(): AddonStatus {
  if (status !== undefined) return status;
  if (process.env.ASSAY_NATIVE === '0') return (status = { addon: null, file: null, reason: 'ASSAY_NATIVE=0' });
  // The repository's root is 2 folders above the bundles (dist/engine) and 2 above this source file.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let up = 0; up < 4; up++, dir = dirname(dir)) {
    const file = join(dir, ADDON_FILE);
    if (!existsSync(file)) continue;
    try {
      const addon = createRequire(import.meta.url)(file) as NativeAddon;
      // A binary left from older sources (a checkout without a rebuild) would miss exports or read arguments differently.
      if (addon.abi !== NATIVE_ABI) return (status = { addon: null, file, reason: `${ADDON_FILE} was built from other sources (exports version ${String(addon.abi)}, expected ${NATIVE_ABI}): npm run build:native` });
      return (status = { addon, file, reason: null });
    } catch (e) {
      return (status = { addon: null, file, reason: (e as Error).message });
    }
  }
  return (status = { addon: null, file: null, reason: `${ADDON_FILE} is not built (npm run build:native)` });
}

const orders = new WeakMap<readonly number[], Int32Array | null>();

/**
 * `ns` (n-gram orders) as the Int32Array the kernels take, or null when one is not an integer in [1, 2^31): those go
 * the JavaScript way. Made once per array: the taggers hand the same array for every document.
 */
export function ordersOf(ns: readonly number[]): Int32Array | null {
  let v = orders.get(ns);
  if (v === undefined) orders.set(ns, (v = ns.every((n) => n >= 1 && n <= 0x7fffffff && Number.isInteger(n)) ? Int32Array.from(ns) : null));
  return v;
}
