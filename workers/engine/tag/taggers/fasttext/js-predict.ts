// fastText's supervised `predict` in JavaScript, float32 step for step, with the rows of each word cached.
import { expf } from './expf.js';
import type { JsModel } from './js-model.js';
import { OutputLayer } from './js-output.js';
import { sumRows } from './js-sum.js';
import { HASH_START, hashStep, TokenCache } from '../../../text/token-cache.js';

const EOS = '</s>';
const utf8 = new TextEncoder();

export interface JsPrediction {
  label: string;
  probability: number;
}

/**
 * Predictions equal to fastText 0.9's (the WebAssembly build's) on the models `readJsModel` accepts: tokens split on
 * fastText's seven whitespace bytes, `</s>` at a newline, character n-grams of `<word>` hashed and pruned as the
 * dictionary does, the hidden vector summed and scaled in float32, then the hierarchical softmax tree searched
 * (or the softmax ranked) with fastText's float32 arithmetic. The time WebAssembly spent hashing n-grams and
 * crossing the JS boundary for every document goes; what is left is a cached row list per distinct word.
 */
export class JsPredictor {
  private readonly cache: TokenCache;
  /** `[count, rows…]` of `</s>`, which ends every line. */
  private readonly eos: Int32Array;
  /** UTF-8 of `<token>`, reused, and its view past the "<". */
  private bytes = new Uint8Array(256);
  private afterOpen = this.bytes.subarray(1);
  /** Rows of the token being looked up, before they are cached. */
  private found = new Int32Array(1024);
  /** Offsets of the line's tokens' row lists in the cache, in line order. */
  private lists = new Int32Array(1024);
  private readonly hidden: Float32Array;
  private readonly out: OutputLayer;

  /** The model's labels, in its order, and whether its input matrix is quantized (`.ftz`). */
  get labels(): readonly string[] {
    return this.m.labels;
  }

  get quantized(): boolean {
    return this.m.quantized;
  }

  /** `cacheLimit`: distinct tokens kept before the cache starts over (tests lower it to exercise the reset). */
  constructor(
    private readonly m: JsModel,
    cacheLimit?: number,
  ) {
    this.cache = new TokenCache(cacheLimit);
    this.hidden = new Float32Array(m.dim);
    this.out = new OutputLayer(m.output, m.dim, m.labelCounts, m.loss);
    const n = this.rows(EOS);
    this.eos = Int32Array.of(n, ...this.found.subarray(0, n));
  }

  /** `FastText::predictLine` on `line` up to its first `\n`, then `</s>`; k = -1 for every label above the threshold. */
  predict(line: string, k = -1, threshold = 0): JsPrediction[] {
    const { m, hidden } = this;
    this.cache.trim();
    const nl = line.indexOf('\n');
    const tokens = this.tokens(line, nl === -1 ? line.length : nl);
    hidden.fill(0);
    let count = sumRows(m.input, m.dim, hidden, this.cache.lists, this.lists, tokens);
    // The runtime hands fastText the line with a "\n" (as Python's binding does), which reads as `</s>`.
    count += sumRows(m.input, m.dim, hidden, this.eos, ZERO, 1);
    if (count === 0) return [];
    const scale = Math.fround(1 / count);
    for (let d = 0; d < m.dim; d++) hidden[d] = (hidden[d] as number) * scale;
    const best = this.out.best(hidden, k, threshold);
    return best.labels.map((label, i) => ({ label: m.labels[label] as string, probability: expf(best.scores[i] as number) }));
  }

  /** Splits `line[0, end)` on fastText's whitespace and puts each token's row list offset in `lists`; their number. */
  private tokens(line: string, end: number): number {
    if (this.lists.length < (end >> 1) + 1) this.lists = new Int32Array((end >> 1) + 64);
    const { cache, lists } = this;
    let n = 0;
    let start = -1;
    let h = HASH_START;
    for (let i = 0; i < end; i++) {
      const c = line.charCodeAt(i);
      // The whitespace fastText splits on: " \n\r\t\v\f\0" (everything above space is a word unit).
      if (c > 0x20 || (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0x0b && c !== 0x0c && c !== 0x00)) {
        if (start < 0) {
          start = i;
          h = HASH_START;
        }
        h = hashStep(h, c);
      } else if (start >= 0) {
        const at = cache.find(line, start, i, h);
        lists[n++] = at >= 0 ? at : this.add(line, start, i, h);
        start = -1;
      }
    }
    if (start >= 0) {
      const at = cache.find(line, start, end, h);
      lists[n++] = at >= 0 ? at : this.add(line, start, end, h);
    }
    return n;
  }

  /** Caches the rows of a token seen for the first time; the offset of its list. */
  private add(line: string, start: number, end: number, h: number): number {
    const n = this.rows(line.slice(start, end));
    return this.cache.add(line, start, end, h, this.found, n);
  }

  /** Input rows of one token into `found`: its own row when in vocabulary, then its character n-grams; their number. */
  private rows(token: string): number {
    const { m } = this;
    // At most one word row and, per character of `<token>`, maxn n-grams.
    if (this.found.length < (token.length + 2) * m.maxn + 1) this.found = new Int32Array((token.length + 2) * m.maxn + 64);
    let count = 0;
    // fastText reads a token with the label prefix as a label, never as input.
    const label = token.startsWith('__label__');
    const wid = label ? undefined : m.wordIds.get(token);
    if (wid !== undefined) this.found[count++] = wid;
    if (token !== EOS && m.maxn > 0 && !label) count = this.subwords(token, count);
    return count;
  }

  /** UTF-8 of `<token>` into `bytes`; its length. ASCII, nearly every token, is copied without the encoder. */
  private encode(token: string): number {
    if (this.bytes.length < token.length * 3 + 2) {
      this.bytes = new Uint8Array(token.length * 3 + 64);
      this.afterOpen = this.bytes.subarray(1);
    }
    const w = this.bytes;
    w[0] = 0x3c;
    let len = 1;
    for (; len <= token.length; len++) {
      const c = token.charCodeAt(len - 1);
      if (c >= 0x80) break;
      w[len] = c;
    }
    if (len <= token.length) len = utf8.encodeInto(token, this.afterOpen).written + 1;
    w[len] = 0x3e;
    return len + 1;
  }

  /**
   * `computeSubwords("<" + token + ">")`: n-grams of 1..maxn UTF-8 characters (not a lone "<" or ">"), each hashed
   * incrementally from its start (FNV-1a extends byte by byte) and kept when the pruned dictionary has its bucket.
   * Found rows go to `found` from `count` on; returns the new count.
   */
  private subwords(token: string, count: number): number {
    const { found } = this;
    const { minn, maxn, nwords, prune, bucket: nb } = this.m;
    const len = this.encode(token);
    const w = this.bytes;
    for (let i = 0; i < len; i++) {
      if (((w[i] as number) & 0xc0) === 0x80) continue;
      let h = 2166136261;
      for (let j = i, n = 1; j < len && n <= maxn; n++) {
        do {
          const b = w[j++] as number;
          h = Math.imul(h ^ (b >= 128 ? b | 0xffffff00 : b), 16777619);
        } while (j < len && ((w[j] as number) & 0xc0) === 0x80);
        if (n >= minn && !(n === 1 && (i === 0 || j === len))) {
          // uint32 % bucket without a floating-point remainder: the double quotient of two integers below 2^32 is
          // never rounded up to the next integer, so its floor is the integer quotient.
          const u = h >>> 0;
          const bucket = nb > 0 ? u - Math.floor(u / nb) * nb : u % nb;
          const id = prune === null ? bucket : prune.get(bucket);
          if (id >= 0) found[count++] = nwords + id;
        }
      }
    }
    return count;
  }
}

const ZERO = new Int32Array(1);
