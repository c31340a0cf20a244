// fastText 0.9 model files read into plain typed arrays, for the JavaScript predictor (js-predict.ts).

/** What prediction needs of a supervised model; matrices are decoded to float32 rows, as fastText sums them. */
export interface JsModel {
  dim: number;
  minn: number;
  maxn: number;
  bucket: number;
  /** 1 hs, 3 softmax (the two losses whose predictions this port reproduces). */
  loss: number;
  nwords: number;
  /** Word → id for the in-vocabulary words (labels excluded). */
  wordIds: Map<string, number>;
  /** Labels in the dictionary's order, with their counts (hs builds its tree from them). */
  labels: string[];
  labelCounts: number[];
  /** Subword bucket → row offset (`pruneidx`); null when the model is not pruned. */
  prune: BucketTable | null;
  /** The input matrix was stored quantized (a `.ftz`). */
  quantized: boolean;
  /** Input matrix, row-major, `alpha · centroid` already applied per element (as `addcode` computes it). */
  input: Float32Array;
  /** Output matrix, row-major (dense: a quantized one multiplies by its norm after the sum, left to WebAssembly). */
  output: Float32Array;
}

/**
 * Bucket → row offset, open addressing in one typed array: every character n-gram of a new word is looked up.
 * Most n-grams are pruned away, so a bit per bucket (256 KB for lid.176's 2M, small enough to stay in cache where
 * the table does not) answers most lookups without probing.
 */
export class BucketTable {
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** Bit b set when bucket b has a row; null above 2^28 buckets (then every lookup probes). */
  private readonly bits: Int32Array | null;

  /** `size` entries, of buckets in [0, `buckets`): the only keys fastText looks up. */
  constructor(size: number, buckets: number) {
    let cap = 16;
    while (cap < size * 2) cap *= 2;
    this.mask = cap - 1;
    this.slots = new Int32Array(cap * 2).fill(-1);
    this.bits = buckets <= 2 ** 28 ? new Int32Array((Math.max(buckets, 0) + 31) >>> 5) : null;
  }

  set(key: number, value: number): void {
    const { bits } = this;
    const w = key >>> 5;
    if (bits !== null && key >= 0 && w < bits.length) bits[w] = (bits[w] as number) | (1 << (key & 31));
    let i = Math.imul(key, 0x9e3779b1) & this.mask;
    while (this.slots[i * 2] !== -1 && this.slots[i * 2] !== key) i = (i + 1) & this.mask;
    this.slots[i * 2] = key;
    this.slots[i * 2 + 1] = value;
  }

  /** The value of a bucket in [0, `buckets`), or -1. */
  get(key: number): number {
    const { bits } = this;
    if (bits !== null && ((bits[key >>> 5] as number) & (1 << (key & 31))) === 0) return -1;
    for (let i = Math.imul(key, 0x9e3779b1) & this.mask; ; i = (i + 1) & this.mask) {
      const k = this.slots[i * 2] as number;
      if (k === key) return this.slots[i * 2 + 1] as number;
      if (k === -1) return -1;
    }
  }
}

class Cursor {
  pos = 0;
  constructor(private readonly b: Buffer) {}
  i8 = (): number => this.b.readInt8(this.pos++);
  u8 = (): number => this.b.readUInt8(this.pos++);
  i32 = (): number => ((this.pos += 4), this.b.readInt32LE(this.pos - 4));
  i64 = (): number => ((this.pos += 8), Number(this.b.readBigInt64LE(this.pos - 8)));
  f64 = (): number => ((this.pos += 8), this.b.readDoubleLE(this.pos - 8));
  f32s(n: number): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.b.readFloatLE(this.pos + i * 4);
    this.pos += n * 4;
    return out;
  }
  bytes(n: number): Uint8Array {
    this.pos += n;
    return this.b.subarray(this.pos - n, this.pos);
  }
  cstring(): string {
    const end = this.b.indexOf(0, this.pos);
    const s = this.b.toString('utf8', this.pos, end);
    this.pos = end + 1;
    return s;
  }
}

interface Pq {
  nsubq: number;
  dsub: number;
  lastdsub: number;
  centroids: Float32Array;
}

function readPq(c: Cursor): Pq {
  const dim = c.i32();
  const nsubq = c.i32();
  const dsub = c.i32();
  const lastdsub = c.i32();
  return { nsubq, dsub, lastdsub, centroids: c.f32s(dim * 256) };
}

/** `ProductQuantizer::get_centroids(m, code)` as an offset into `centroids`. */
const centroidAt = (pq: Pq, m: number, code: number): number => (m === pq.nsubq - 1 ? m * 256 * pq.dsub + code * pq.lastdsub : (m * 256 + code) * pq.dsub);

/** A QuantMatrix decoded row by row: element = fround(norm · centroid), what `addcode(x, codes, i, norm)` adds. */
function readMatrix(c: Cursor, quantized: boolean, dim: number): Float32Array {
  if (!quantized) {
    const m = c.i64();
    const n = c.i64();
    return c.f32s(m * n);
  }
  const qnorm = c.u8() !== 0;
  const m = c.i64();
  c.i64(); // n
  const codes = c.bytes(c.i32());
  const pq = readPq(c);
  let norms: Float32Array | null = null;
  if (qnorm) {
    const normCodes = c.bytes(m);
    const npq = readPq(c);
    norms = new Float32Array(m);
    for (let i = 0; i < m; i++) norms[i] = npq.centroids[centroidAt(npq, 0, normCodes[i] as number)] as number;
  }
  const out = new Float32Array(m * dim);
  for (let i = 0; i < m; i++) {
    const alpha = norms === null ? 1 : (norms[i] as number);
    for (let q = 0; q < pq.nsubq; q++) {
      const at = centroidAt(pq, q, codes[i * pq.nsubq + q] as number);
      const d = q === pq.nsubq - 1 ? pq.lastdsub : pq.dsub;
      for (let k = 0; k < d; k++) out[i * dim + q * pq.dsub + k] = Math.fround(alpha * (pq.centroids[at + k] as number));
    }
  }
  return out;
}

/**
 * Reads a supervised model the predictor can reproduce exactly, or null (word n-grams above 1 hash in 64 bits,
 * ns/ova losses, a quantized output matrix): those stay on the WebAssembly runtime. openModelFile checked the header.
 */
export function readJsModel(b: Buffer): JsModel | null {
  const c = new Cursor(b);
  c.pos = 8;
  const [dim, , , , , wordNgrams, loss, model, bucket, minn, maxn] = Array.from({ length: 12 }, () => c.i32());
  c.f64();
  if (model !== 3 || (wordNgrams as number) > 1 || (loss !== 1 && loss !== 3)) return null;
  const size = c.i32();
  const nwords = c.i32();
  c.i32(); // nlabels
  c.i64(); // ntokens
  const pruneSize = c.i64();
  const wordIds = new Map<string, number>();
  const labels: string[] = [];
  const labelCounts: number[] = [];
  for (let i = 0; i < size; i++) {
    const word = c.cstring();
    const count = c.i64();
    if (c.i8() === 0) wordIds.set(word, i);
    else {
      labels.push(word);
      labelCounts.push(count);
    }
  }
  let prune: BucketTable | null = null;
  if (pruneSize >= 0) {
    prune = new BucketTable(pruneSize, bucket as number);
    for (let i = 0; i < pruneSize; i++) prune.set(c.i32(), c.i32());
  }
  const quantInput = c.u8() !== 0;
  const input = readMatrix(c, quantInput, dim as number);
  if (c.u8() !== 0 && quantInput) return null;
  const output = readMatrix(c, false, dim as number);
  return { quantized: quantInput, dim: dim as number, minn: minn as number, maxn: maxn as number, bucket: bucket as number, loss: loss as number, nwords, wordIds, labels, labelCounts, prune, input, output };
}
