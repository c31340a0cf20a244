// fastText's output layer in JavaScript: the hierarchical softmax search or the softmax, then the k best labels.
import { expf } from './expf.js';

const f32 = Math.fround;

/**
 * `HierarchicalSoftmaxLoss::predict` (loss 1) or `SoftmaxLoss::predict` (loss 3) with fastText's float32
 * arithmetic. Found labels go to two typed arrays in the order fastText's heap vector holds them (push at the
 * end; past k, the first of the lowest scores leaves), so a document costs no array per label.
 */
export class OutputLayer {
  readonly osz: number;
  /** The Huffman tree (loss 1): children of each node, -1 for leaves; leaf i is label i, the root is 2·osz − 2. */
  readonly left: Int32Array;
  readonly right: Int32Array;
  /** Scores (float32 values) and label indices of the labels kept so far, `n` of them. */
  private readonly scores: Float64Array;
  private readonly found: Int32Array;
  private n = 0;
  private k = 0;
  private floor = 0;
  private readonly probs: Float32Array;

  constructor(
    private readonly output: Float32Array,
    private readonly dim: number,
    labelCounts: number[],
    private readonly loss: number,
    /** The hidden vector the caller fills before each search. */
    private readonly hidden: Float32Array,
  ) {
    this.osz = labelCounts.length;
    [this.left, this.right] = buildTree(labelCounts);
    this.scores = new Float64Array(this.osz + 1);
    this.found = new Int32Array(this.osz + 1);
    this.probs = new Float32Array(this.osz);
  }

  /** The k best labels (k = -1: all) scoring at least `threshold`, best first: label indices and log-probabilities. */
  best(k: number, threshold: number): { labels: number[]; scores: number[] } {
    this.k = k === -1 ? this.osz : k;
    this.n = 0;
    if (this.loss === 1) {
      this.floor = stdLog(threshold);
      this.dfs(2 * this.osz - 2, 0);
    } else this.softmax(threshold);
    // fastText sorts its heap by decreasing score; a stable sort of positions keeps ties in heap order, as
    // sorting the [score, label] pairs themselves did.
    const { scores, found } = this;
    const order: number[] = [];
    for (let i = 0; i < this.n; i++) order.push(i);
    order.sort((a, b) => (scores[b] as number) - (scores[a] as number));
    return { labels: order.map((i) => found[i] as number), scores: order.map((i) => scores[i] as number) };
  }

  /** `std::push_heap`, and past k `pop_heap` of the lowest score: the first of the lowest leaves. */
  private keep(score: number, label: number): void {
    const { scores, found } = this;
    scores[this.n] = score;
    found[this.n++] = label;
    if (this.n <= this.k) return;
    let low = 0;
    for (let i = 1; i < this.n; i++) if ((scores[i] as number) < (scores[low] as number)) low = i;
    this.n--;
    scores.copyWithin(low, low + 1, this.n + 1);
    found.copyWithin(low, low + 1, this.n + 1);
  }

  /** The lowest kept score (NaN when one is NaN, as `Math.min` gives). */
  private lowest(): number {
    let low = Infinity;
    for (let i = 0; i < this.n; i++) low = Math.min(low, this.scores[i] as number);
    return low;
  }

  /** `HierarchicalSoftmaxLoss::dfs` from `node`; a method rather than a closure (≈ 2 × labels calls a document). */
  private dfs(node: number, score: number): void {
    if (score < this.floor) return;
    if (this.n === this.k && score < this.lowest()) return;
    const left = this.left[node] as number;
    const right = this.right[node] as number;
    if (left === -1 && right === -1) {
      this.keep(score, node);
      return;
    }
    const f = this.branch(node);
    this.dfs(left, f32(score + stdLog(1 - f)));
    this.dfs(right, f32(score + stdLog(f)));
  }

  /** An inner node's `f`: the probability, in float32, that the search goes right (`1 / (1 + exp(-row · hidden))`). */
  branch(node: number): number {
    return f32(1 / f32(1 + expf(-this.dot(node - this.osz))));
  }

  /** output row · hidden, summed in float32 from the first dimension on, as fastText's `dotRow` does. */
  dot(row: number): number {
    const { output, hidden, dim } = this;
    const at = row * dim;
    let d = 0;
    for (let j = 0; j < dim; j++) d = f32(d + f32((output[at + j] as number) * (hidden[j] as number)));
    return d;
  }

  /** `SoftmaxLoss::computeOutput` then `findKBest`. */
  private softmax(threshold: number): void {
    const out = this.probs;
    for (let i = 0; i < this.osz; i++) out[i] = this.dot(i);
    let max = out[0] as number;
    for (const v of out) max = Math.max(v, max);
    let z = 0;
    for (let i = 0; i < this.osz; i++) {
      out[i] = expf(f32((out[i] as number) - max));
      z = f32(z + (out[i] as number));
    }
    for (let i = 0; i < this.osz; i++) {
      const p = f32((out[i] as number) / z);
      if (p < f32(threshold)) continue;
      if (this.n === this.k && stdLog(p) < this.lowest()) continue;
      this.keep(stdLog(p), i);
    }
  }
}

/** `Loss::std_log` on a float argument, result back to float. */
export const stdLog = (x: number): number => f32(Math.log(f32(x) + 1e-5));

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
