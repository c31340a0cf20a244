// fastText's supervised `predict` in JavaScript, float32 step for step, with the rows of each word cached.
import { expf } from './expf.js';
import type { JsModel } from './js-model.js';
import { FirstSearch } from './js-first.js';
import { OutputLayer } from './js-output.js';
import { rowSummer, type RowSummer } from './js-sum.js';
import { CACHE_LIMIT, HASH_START, hashStep, TokenCache } from '../../../text/token-cache.js';
import { NativeEmbedder } from './js-native.js';

const EOS = '</s>';
const utf8 = new TextEncoder();

export interface JsPrediction {
  label: string;
  probability: number;
}

/**
 * n undefined elements, in an array of generic elements whatever is stored later: an array of numbers only would have
 * double elements, and code reading both kinds is compiled twice.
 */
function generic(n: number): (number | undefined)[] {
  const a: (number | undefined)[] = [undefined];
  a.length = n;
  return a.fill(undefined);
}

/** `predict(text with newlines as spaces, -1)`'s first prediction (null when empty) and the probability it gives each asked label. */
export interface FirstAnd {
  first: JsPrediction | null;
  /** Per asked label, in order: its probability, or undefined when the prediction does not list it. */
  probabilities: (number | undefined)[];
}

/**
 * Predictions equal to fastText 0.9's (the WebAssembly build's) on the models `readJsModel` accepts: tokens split on
 * fastText's seven whitespace bytes, `</s>` at a newline, character n-grams of `<word>` hashed and pruned as the
 * dictionary does, the hidden vector summed and scaled in float32, then the hierarchical softmax tree searched
 * (or the softmax ranked) with fastText's float32 arithmetic. The time WebAssembly spent hashing n-grams and
 * crossing the JS boundary for every document goes; what is left is a cached row list per distinct word.
 */
export class JsPredictor {
  /*
   * The JavaScript hidden vector's state (initJs): made only when the addon does not compute it, since the row
   * summer (a WebAssembly instance and a matrix of every input row) and `</s>`'s decoded rows cost milliseconds.
   */
  private cache!: TokenCache;
  /** Rows of `</s>`, which ends every line. */
  private eos!: Int32Array;
  /**
   * UTF-8 of the line being read, and of `<token>` for a new token's n-grams. The buffers start small and grow in
   * the first lines, before the compiler optimizes the code that grows them (a first growth later would discard it).
   */
  private line = new Uint8Array(64);
  private bytes = new Uint8Array(16);
  /** Rows of the token being looked up, before they are cached. */
  private found = new Int32Array(16);
  /** Adds up the line's rows, which `gather` writes into it in order; holds the input rows decoded so far. */
  private summer!: RowSummer;
  private decoded!: Uint8Array;
  /** The line read so far had a `</s>` token, where fastText stops. */
  private stopped = false;
  /** Per token of the line: list offset, start, end, hash (see `split`); and how many were not cached. */
  private spans = new Int32Array(64);
  private misses = 0;
  private readonly hidden: Float32Array;
  private readonly out: OutputLayer;
  /** For hierarchical-softmax models: the first label without ranking all of them. */
  private readonly search: FirstSearch | null;
  private readonly labelIndex: Map<string, number>;
  private picked = new Float64Array(8);
  /** The C addon's `embed` when it is built (native/fasttext.c): the same hidden vector, bit for bit. */
  private readonly native: NativeEmbedder | null;

  /** The model's labels, in its order, and whether its input matrix is quantized (`.ftz`). */
  get labels(): readonly string[] {
    return this.m.labels;
  }

  get quantized(): boolean {
    return this.m.quantized;
  }

  /** Whether the C addon computes the hidden vectors (else this class's JavaScript does). */
  get usesNative(): boolean {
    return this.native !== null;
  }

  /**
   * `cacheLimit`: distinct tokens kept before the cache starts over (tests lower it to exercise the reset).
   * `native`: false keeps every step in JavaScript even where the addon is built (tests compare the two).
   */
  constructor(
    private readonly m: JsModel,
    cacheLimit?: number,
    native = true,
  ) {
    this.native = native ? NativeEmbedder.create(m, cacheLimit ?? CACHE_LIMIT) : null;
    this.hidden = new Float32Array(m.dim);
    this.out = new OutputLayer(m.output, m.dim, m.labelCounts, m.loss, this.hidden);
    this.search = m.loss === 1 && m.labels.length > 0 ? new FirstSearch(this.out, m.output, this.hidden) : null;
    this.labelIndex = new Map(m.labels.map((l, i) => [l, i]));
    if (this.native === null) this.initJs(cacheLimit);
  }

  private initJs(cacheLimit: number | undefined): void {
    const { m } = this;
    this.cache = new TokenCache(cacheLimit);
    this.summer = rowSummer(m.input.rows, m.dim);
    this.decoded = new Uint8Array(m.input.rows);
    const len = utf8.encodeInto(EOS, this.line).written;
    let h = HASH_START;
    for (let i = 0; i < len; i++) h = hashStep(h, this.line[i] as number);
    const n = this.rows(0, len, h);
    this.decode(n);
    this.eos = this.found.slice(0, n);
  }

  /** `FastText::predictLine` on `line` up to its first `\n`, then `</s>`; k = -1 for every label above the threshold. */
  predict(line: string, k = -1, threshold = 0): JsPrediction[] {
    const { m } = this;
    if (!this.embed(line)) return [];
    const best = this.out.best(k, threshold);
    return best.labels.map((label, i) => ({ label: m.labels[label] as string, probability: expf(best.scores[i] as number) }));
  }

  /**
   * What `predict(text.replace(/\n/g, ' '), -1)` says of its first label and of `labels`, found without ranking
   * every label (js-first.ts) and without copying the text (a newline is whitespace to the tokenizer too); null
   * when only the full ranking can tell (a softmax model, or a hidden vector that could overflow).
   */
  first(text: string, labels: readonly string[]): FirstAnd | null {
    const { m, search } = this;
    if (search === null) return null;
    // Loops rather than `map`: once V8 inlines a `map`, its arrays have another map than the builtin's, and the code
    // compiled for the first kind is thrown away. Typed arrays have one.
    const n = labels.length;
    const ids = new Int32Array(n);
    const asked = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      ids[i] = this.labelIndex.get(labels[i] as string) ?? -1;
      asked[i] = Math.max(ids[i] as number, 0);
    }
    const probabilities = generic(n);
    if (!this.embed(text, true)) return { first: null, probabilities };
    if (this.picked.length < n + 2) this.picked = new Float64Array(n + 2);
    const into = this.picked;
    if (!search.run(asked, into)) return null;
    const top = into[0] as number;
    for (let i = 0; i < n; i++) probabilities[i] = ids[i]! < 0 || Number.isNaN(into[2 + i] as number) ? undefined : expf(into[2 + i] as number);
    return { first: top < 0 ? null : { label: m.labels[top] as string, probability: expf(into[1] as number) }, probabilities };
  }

  /**
   * fastText's hidden vector of `line` up to its first `\n` (or, `whole`, of all of it, newlines read as spaces)
   * into `hidden`; false when the line has no input row.
   */
  private embed(line: string, whole = false): boolean {
    const { m, hidden } = this;
    const nl = whole ? -1 : line.indexOf('\n');
    const text = nl === -1 ? line : line.slice(0, nl);
    if (this.line.length < text.length * 3) this.line = new Uint8Array(text.length * 3 + 1024);
    // fastText reads bytes; the encoder writes a lone surrogate as U+FFFD, as the runtime's input would have it.
    const end = utf8.encodeInto(text, this.line).written;
    if (this.native !== null) return this.native.embed(this.line, end, hidden) > 0;
    this.cache.trim();
    const tokens = this.split(end);
    if (this.misses > 0) this.cacheNew(tokens);
    let count = this.gather(tokens);
    // The runtime hands fastText the line with a "\n" (as Python's binding does), which reads as `</s>`, unless
    // a literal `</s>` token already ended it.
    if (!this.stopped) {
      this.summer.reserve(count + this.eos.length).set(this.eos, count);
      count += this.eos.length;
    }
    hidden.fill(0);
    this.summer.sum(hidden, count);
    if (count === 0) return false;
    const scale = Math.fround(1 / count);
    for (let d = 0; d < m.dim; d++) hidden[d] = (hidden[d] as number) * scale;
    return true;
  }

  /**
   * Splits `line[0, end)` on fastText's whitespace into `spans`, four ints a token: its list's offset in the cache
   * (-1 when not cached, counted in `misses`), start, end and hash; their number. Like `Dictionary::getLine`, stops
   * after a `</s>` token (then `stopped` is set). New tokens are left to `cacheNew`, so this loop, which every byte
   * of every document goes through, stays small for the compiler.
   */
  private split(end: number): number {
    if (this.spans.length < 2 * end + 8) this.spans = new Int32Array(2 * end + 1024);
    const { cache, line, spans } = this;
    this.stopped = false;
    let misses = 0;
    let n = 0;
    let start = -1;
    let h = HASH_START;
    // A space past the end ends the last token.
    line[end] = 0x20;
    for (let i = 0; i <= end; i++) {
      const c = line[i] as number;
      // The whitespace fastText splits on: " \n\r\t\v\f\0" (every other byte is part of a word).
      if (c > 0x20 || (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0x0b && c !== 0x0c && c !== 0x00)) {
        if (start < 0) {
          start = i;
          h = HASH_START;
        }
        h = hashStep(h, c);
      } else if (start >= 0) {
        const at = cache.find(line, start, i, h);
        if (at < 0) misses++;
        spans[n] = at;
        spans[n + 1] = start;
        spans[n + 2] = i;
        spans[n + 3] = h;
        n += 4;
        if (i - start === 4 && isEos(line, start)) {
          this.stopped = true;
          break;
        }
        start = -1;
      }
    }
    this.misses = misses;
    return n >> 2;
  }

  /** Caches the rows of the tokens `split` did not find (a token new twice in a line is cached once). */
  private cacheNew(tokens: number): void {
    const { spans, cache, line } = this;
    for (let t = 0; t < 4 * tokens; t += 4) {
      if ((spans[t] as number) >= 0) continue;
      const start = spans[t + 1] as number;
      const end = spans[t + 2] as number;
      const h = spans[t + 3] as number;
      const at = cache.find(line, start, end, h);
      spans[t] = at >= 0 ? at : this.add(start, end, h);
    }
  }

  /** Writes the tokens' rows to the summer, in line order; their number. */
  private gather(tokens: number): number {
    const { spans } = this;
    const lists = this.cache.lists;
    let rows = this.summer.rows;
    let count = 0;
    for (let t = 0; t < 4 * tokens; t += 4) {
      const from = spans[t] as number;
      const len = lists[from] as number;
      if (count + len > rows.length) rows = this.summer.reserve(count + len);
      for (let k = 1; k <= len; k++) rows[count++] = lists[from + k] as number;
    }
    return count;
  }

  /** Caches the rows of a token seen for the first time; the offset of its list. */
  private add(start: number, end: number, h: number): number {
    const n = this.rows(start, end, h);
    this.decode(n);
    return this.cache.add(this.line, start, end, h, this.found, n);
  }

  /** Decodes the input rows among `found[0, n)` that no token has needed before. */
  private decode(n: number): void {
    const { found, decoded, m } = this;
    for (let i = 0; i < n; i++) {
      const r = found[i] as number;
      if (decoded[r] === 0) {
        m.input.decode(r, this.summer.matrix, r * m.dim);
        decoded[r] = 1;
      }
    }
  }

  /** Input rows of the token `line[start, end)` (hash `h`) into `found`: its word row if any, then its n-grams; their number. */
  private rows(start: number, end: number, h: number): number {
    const { m, line } = this;
    const len = end - start;
    // At most one word row and, per byte of `<token>`, maxn n-grams.
    if (this.found.length < (len + 2) * m.maxn + 1) this.found = new Int32Array((len + 2) * m.maxn + 64);
    let count = 0;
    // fastText reads a token with the label prefix as a label, never as input.
    let label = len >= LABEL.length;
    for (let i = 0; label && i < LABEL.length; i++) label = line[start + i] === LABEL[i];
    const wid = label ? -1 : m.words.get(line, start, end, h);
    if (wid >= 0) this.found[count++] = wid;
    if (!(len === 4 && isEos(line, start)) && m.maxn > 0 && !label) count = this.subwords(start, end, count);
    return count;
  }

  /** `subwordRows` of `<line[start, end)>`, from `count` on in `found`; returns the new count. */
  private subwords(start: number, end: number, count: number): number {
    const len = end - start + 2;
    if (this.bytes.length < len) this.bytes = new Uint8Array(len + 64);
    const w = this.bytes;
    w[0] = 0x3c;
    for (let i = start; i < end; i++) w[i - start + 1] = this.line[i] as number;
    w[len - 1] = 0x3e;
    return subwordRows(w, len, this.m, this.found, count);
  }
}

/** What `subwordRows` reads of a model. */
export type SubwordModel = Pick<JsModel, 'minn' | 'maxn' | 'nwords' | 'prune' | 'bucket'>;

/**
 * `computeSubwords` on `w[0, len)` (a token with its `<` `>`): n-grams of 1..maxn UTF-8 characters (not a lone "<" or
 * ">"), each hashed incrementally from its start (FNV-1a extends byte by byte) and kept when the pruned dictionary
 * has its bucket. Found rows go to `found` from `count` on (it must have room for len · maxn more); returns the new
 * count. bench/kernel times this loop against WebAssembly and C ports of it.
 */
export function subwordRows(w: Uint8Array, len: number, m: SubwordModel, found: Int32Array, count: number): number {
  const { minn, maxn, nwords, prune, bucket: nb } = m;
  const inverse = 1 / nb;
  for (let i = 0; i < len; i++) {
    if (((w[i] as number) & 0xc0) === 0x80) continue;
    let h = 2166136261;
    for (let j = i, n = 1; j < len && n <= maxn; n++) {
      do {
        const b = w[j++] as number;
        // fastText hashes `int8_t` bytes: sign-extended.
        h = Math.imul(h ^ ((b << 24) >> 24), 16777619);
      } while (j < len && ((w[j] as number) & 0xc0) === 0x80);
      if (n >= minn && !(n === 1 && (i === 0 || j === len))) {
        const bucket = remainder(h >>> 0, nb, inverse);
        const id = prune === null ? bucket : prune.get(bucket);
        if (id >= 0) found[count++] = nwords + id;
      }
    }
  }
  return count;
}

const LABEL = utf8.encode('__label__');

/**
 * `u % n` for a uint32 `u`, by a multiplication (`inverse` = 1 / n): u · inverse is within 2^-20 of the quotient,
 * so its floor is the integer quotient or one off, which the remainder's range check corrects. A division per
 * n-gram was a fifth of hashing a new word's n-grams.
 */
export function remainder(u: number, n: number, inverse: number): number {
  if (!(n > 0)) return u % n;
  const r = u - Math.floor(u * inverse) * n;
  return r < 0 ? r + n : r >= n ? r - n : r;
}

/** `line[at, at + 4)` is `</s>`. */
const isEos = (line: Uint8Array, at: number): boolean => line[at] === 0x3c && line[at + 1] === 0x2f && line[at + 2] === 0x73 && line[at + 3] === 0x3e;
