// fastText's supervised `predict` in JavaScript, float32 step for step, with the rows of each word cached.
import { expf } from './expf.js';
import type { JsModel } from './js-model.js';
import { HASH_START, hashStep, TokenCache } from '../../../text/token-cache.js';

const f32 = Math.fround;
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
  private readonly cache = new TokenCache<Int32Array>();
  /** Rows of `</s>`, which ends every line. */
  private eos: Int32Array | undefined;
  /** UTF-8 of `<token>`, reused, and its view past the "<". */
  private bytes = new Uint8Array(256);
  private afterOpen = this.bytes.subarray(1);
  /** Rows of the token being looked up, before they are copied out. */
  private found = new Int32Array(1024);
  private readonly hidden: Float32Array;
  private readonly left: Int32Array;
  private readonly right: Int32Array;
  private readonly osz: number;

  /** The model's labels, in its order, and whether its input matrix is quantized (`.ftz`). */
  get labels(): readonly string[] {
    return this.m.labels;
  }

  get quantized(): boolean {
    return this.m.quantized;
  }

  constructor(private readonly m: JsModel) {
    this.hidden = new Float32Array(m.dim);
    this.osz = m.labels.length;
    [this.left, this.right] = buildTree(m.labelCounts);
  }

  /** Input rows of one token: its own row when in vocabulary, then its character n-grams. */
  private readonly rows = (token: string): Int32Array => {
    const { m } = this;
    // At most one word row and, per start byte, maxn n-grams.
    if (this.found.length < (token.length * 3 + 2) * m.maxn + 1) this.found = new Int32Array((token.length * 3 + 2) * m.maxn + 64);
    let count = 0;
    // fastText reads a token with the label prefix as a label, never as input.
    const label = token.startsWith('__label__');
    const wid = label ? undefined : m.wordIds.get(token);
    if (wid !== undefined) this.found[count++] = wid;
    if (token !== EOS && m.maxn > 0 && !label) count = this.subwords(token, count);
    return this.found.slice(0, count);
  };

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
    const { m, found } = this;
    const len = this.encode(token);
    const w = this.bytes;
    const nb = m.bucket;
    for (let i = 0; i < len; i++) {
      if (((w[i] as number) & 0xc0) === 0x80) continue;
      let h = 2166136261;
      for (let j = i, n = 1; j < len && n <= m.maxn; n++) {
        do {
          const b = w[j++] as number;
          h = Math.imul(h ^ (b >= 128 ? b | 0xffffff00 : b), 16777619);
        } while (j < len && ((w[j] as number) & 0xc0) === 0x80);
        if (n >= m.minn && !(n === 1 && (i === 0 || j === len))) {
          // uint32 % bucket without a floating-point remainder: the double quotient of two integers below 2^32 is
          // never rounded up to the next integer, so its floor is the integer quotient.
          const u = h >>> 0;
          const bucket = nb > 0 ? u - Math.floor(u / nb) * nb : u % nb;
          const id = m.prune === null ? bucket : m.prune.get(bucket);
          if (id >= 0) found[count++] = m.nwords + id;
        }
      }
    }
    return count;
  }

  /** `FastText::predictLine` on `line` up to its first `\n`, then `</s>`; k = -1 for every label above the threshold. */
  predict(line: string, k = -1, threshold = 0): JsPrediction[] {
    const { m, hidden } = this;
    const dim = m.dim;
    hidden.fill(0);
    let count = 0;
    const nl = line.indexOf('\n');
    const end = nl === -1 ? line.length : nl;
    let start = -1;
    let h = HASH_START;
    for (let i = 0; i <= end; i++) {
      const c = i < end ? line.charCodeAt(i) : 0x20;
      const ws = c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0b || c === 0x0c || c === 0x00;
      if (!ws) {
        if (start < 0) {
          start = i;
          h = HASH_START;
        }
        h = hashStep(h, c);
      } else if (start >= 0) {
        count += this.accumulate(this.cache.get(line, start, i, h, this.rows));
        start = -1;
      }
    }
    // The runtime hands fastText the line with a "\n" (as Python's binding does), which reads as `</s>`.
    count += this.accumulate((this.eos ??= this.rows(EOS)));
    if (count === 0) return [];
    const scale = f32(1 / count);
    for (let d = 0; d < dim; d++) hidden[d] = (hidden[d] as number) * scale;
    const kk = k === -1 ? this.osz : k;
    const heap: [number, number][] = m.loss === 1 ? this.hs(kk, threshold) : this.softmax(kk, threshold);
    heap.sort((a, b) => b[0] - a[0]);
    return heap.map(([score, label]) => ({ label: m.labels[label] as string, probability: expf(score) }));
  }

  /** hidden += each row, in order, in float32 (a typed-array store rounds each sum as fastText's `+=` does). */
  private accumulate(rows: Int32Array): number {
    const { hidden } = this;
    const { input, dim } = this.m;
    for (let r = 0; r < rows.length; r++) {
      const at = (rows[r] as number) * dim;
      for (let d = 0; d < dim; d++) hidden[d] = (hidden[d] as number) + (input[at + d] as number);
    }
    return rows.length;
  }

  /** output row · hidden, summed in float32 from the first dimension on, as fastText's `dotRow` does. */
  private dot(row: number): number {
    const { m, hidden } = this;
    const dim = m.dim;
    const out = m.output;
    const at = row * dim;
    let d = 0;
    for (let j = 0; j < dim; j++) d = f32(d + f32((out[at + j] as number) * (hidden[j] as number)));
    return d;
  }

  /** `HierarchicalSoftmaxLoss::dfs` from the root, keeping the k best leaves (a min-heap in fastText). */
  private hs(k: number, threshold: number): [number, number][] {
    const heap: [number, number][] = [];
    this.dfs(2 * this.osz - 2, 0, heap, k, stdLog(threshold));
    return heap;
  }

  /** One node of the search; a method rather than a closure made per call (it runs ≈ 2 × labels times a document). */
  private dfs(node: number, score: number, heap: [number, number][], k: number, floor: number): void {
    if (score < floor) return;
    if (heap.length === k && score < minOf(heap)) return;
    const left = this.left[node] as number;
    const right = this.right[node] as number;
    if (left === -1 && right === -1) {
      heap.push([score, node]);
      if (heap.length > k) heap.splice(heap.indexOf(heap.reduce((a, b) => (b[0] < a[0] ? b : a))), 1);
      return;
    }
    let f = this.dot(node - this.osz);
    f = f32(1 / f32(1 + expf(-f)));
    this.dfs(left, f32(score + stdLog(1 - f)), heap, k, floor);
    this.dfs(right, f32(score + stdLog(f)), heap, k, floor);
  }

  /** `SoftmaxLoss::computeOutput` then `findKBest`. */
  private softmax(k: number, threshold: number): [number, number][] {
    const out = new Float32Array(this.osz);
    for (let i = 0; i < this.osz; i++) out[i] = this.dot(i);
    let max = out[0] as number;
    for (const v of out) max = Math.max(v, max);
    let z = 0;
    for (let i = 0; i < this.osz; i++) {
      out[i] = expf(f32((out[i] as number) - max));
      z = f32(z + (out[i] as number));
    }
    const heap: [number, number][] = [];
    for (let i = 0; i < this.osz; i++) {
      const p = f32((out[i] as number) / z);
      if (p < f32(threshold)) continue;
      if (heap.length === k && stdLog(p) < minOf(heap)) continue;
      heap.push([stdLog(p), i]);
      if (heap.length > k) heap.splice(heap.indexOf(heap.reduce((a, b) => (b[0] < a[0] ? b : a))), 1);
    }
    return heap;
  }
}

/** `Loss::std_log` on a float argument, result back to float. */
const stdLog = (x: number): number => f32(Math.log(f32(x) + 1e-5));
const minOf = (heap: [number, number][]): number => heap.reduce((a, b) => Math.min(a, b[0]), Infinity);

/** `HierarchicalSoftmaxLoss::buildTree`: the Huffman tree over label counts (labels sorted by count, descending). */
function buildTree(counts: number[]): [Int32Array, Int32Array] {
  const osz = counts.length;
  const size = Math.max(1, 2 * osz - 1);
  const left = new Int32Array(size).fill(-1);
  const right = new Int32Array(size).fill(-1);
  const count = new Float64Array(size).fill(1e15);
  counts.forEach((c, i) => (count[i] = c));
  let leaf = osz - 1;
  let node = osz;
  for (let i = osz; i < 2 * osz - 1; i++) {
    const mini = [0, 0];
    for (let j = 0; j < 2; j++) mini[j] = leaf >= 0 && (count[leaf] as number) < (count[node] as number) ? leaf-- : node++;
    left[i] = mini[0] as number;
    right[i] = mini[1] as number;
    count[i] = (count[mini[0] as number] as number) + (count[mini[1] as number] as number);
  }
  return [left, right];
}
