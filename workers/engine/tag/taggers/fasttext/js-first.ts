// What `predict(line, -1)` says of its first label and of a few given labels, without searching and ranking all labels.
import { stdLog, type OutputLayer } from './js-output.js';

const f32 = Math.fround;
/**
 * More than one step down the tree can raise a score: stdLog(f) ≤ stdLog(1) ≈ 1.0e-5, plus the float32 rounding of
 * the sum, half an ulp of a score between stdLog(0) ≈ −11.5 and 0 (≤ 2^-21). Scores otherwise only fall.
 */
const STEP_GAIN = 2e-5;
/** Below this size of |row · hidden| terms a dot product cannot overflow, so no score is NaN and scores order totally. */
const SAFE = 1e36;

/**
 * For a hierarchical-softmax model, with threshold 0: `predict(line, -1)` lists every leaf whose path never
 * scores below stdLog(0), sorted by score with ties in search order. Its first entry is therefore the highest
 * leaf, the earliest in search order among equals; a branch and bound that descends the likelier child first
 * finds it with a few dot products, pruning a subtree once even its most favourable leaf (its score plus
 * STEP_GAIN per level) falls short of the best leaf so far. A given label's entry is its path's score, when no
 * node on the path scores below stdLog(0). The same float32 steps as `OutputLayer.dfs`, so the same numbers.
 */
export class FirstSearch {
  private readonly floor = stdLog(0);
  private readonly root: number;
  /** Position of each leaf in the full search's order; per node, STEP_GAIN × its height; parents. */
  private readonly rank: Int32Array;
  private readonly reach: Float64Array;
  private readonly parent: Int32Array;
  /** `branch(node)` of this line, valid where `seen[node] === line`. */
  private readonly f: Float64Array;
  private readonly seen: Int32Array;
  private line = 0;
  private readonly outputMax: number;
  private best = -Infinity;
  private bestLeaf = -1;

  constructor(
    private readonly out: OutputLayer,
    output: Float32Array,
    private readonly hidden: Float32Array,
  ) {
    const size = out.left.length;
    this.root = size - 1;
    this.rank = new Int32Array(size);
    this.reach = new Float64Array(size);
    this.parent = new Int32Array(size).fill(-1);
    this.f = new Float64Array(size);
    this.seen = new Int32Array(size);
    this.walk(this.root, 0);
    this.outputMax = output.reduce((a, b) => Math.max(a, Math.abs(b)), 0);
  }

  /** Ranks leaves in search order (left child first) and sets heights and parents; returns the next rank. */
  private walk(node: number, next: number): number {
    const left = this.out.left[node] as number;
    const right = this.out.right[node] as number;
    if (left === -1) {
      this.rank[node] = next;
      return next + 1;
    }
    this.parent[left] = this.parent[right] = node;
    next = this.walk(right, this.walk(left, next));
    this.reach[node] = Math.max(this.reach[left] as number, this.reach[right] as number) + STEP_GAIN;
    return next;
  }

  /**
   * The first label's index and score (-1, when nothing reaches stdLog(0)), then each of `labels`' score (NaN when
   * it is not listed), into `into`; false when the hidden vector could overflow a dot product (then rank them all).
   */
  run(labels: Int32Array, into: Float64Array): boolean {
    let top = 0;
    for (const h of this.hidden) top = Math.max(top, Math.abs(h));
    if (!(top * this.outputMax * this.hidden.length < SAFE)) return false;
    this.line = (this.line + 1) | 0;
    this.best = -Infinity;
    this.bestLeaf = -1;
    this.search(this.root, 0);
    into[0] = this.bestLeaf;
    into[1] = this.best;
    for (let i = 0; i < labels.length; i++) into[2 + i] = this.pathScore(labels[i] as number);
    return true;
  }

  private branch(node: number): number {
    if (this.seen[node] !== this.line) {
      this.seen[node] = this.line;
      this.f[node] = this.out.branch(node);
    }
    return this.f[node] as number;
  }

  private search(node: number, score: number): void {
    if (score < this.floor || score + (this.reach[node] as number) < this.best) return;
    const left = this.out.left[node] as number;
    const right = this.out.right[node] as number;
    if (left === -1) {
      if (score > this.best || (score === this.best && (this.rank[node] as number) < (this.rank[this.bestLeaf] as number))) {
        this.best = score;
        this.bestLeaf = node;
      }
      return;
    }
    const f = this.branch(node);
    const l = f32(score + stdLog(1 - f));
    const r = f32(score + stdLog(f));
    if (r > l) {
      this.search(right, r);
      this.search(left, l);
    } else {
      this.search(left, l);
      this.search(right, r);
    }
  }

  /** The score of leaf `label` as the full search reaches it, or NaN when a node on its path is below stdLog(0). */
  private pathScore(label: number): number {
    const path: number[] = [];
    for (let n = label; n !== this.root && n !== -1; n = this.parent[n] as number) path.push(n);
    let score = 0;
    let node = this.root;
    for (let i = path.length - 1; i >= 0; i--) {
      if (score < this.floor) return NaN;
      const child = path[i] as number;
      const f = this.branch(node);
      score = f32(score + stdLog(child === this.out.left[node] ? 1 - f : f));
      node = child;
    }
    return score < this.floor ? NaN : score;
  }
}
