// fastText 0.9 model files read into plain typed arrays, for the JavaScript predictor (js-predict.ts).
import { BucketTable, WordTable } from './js-tables.js';

/** What prediction needs of a supervised model; matrices are decoded to float32 rows, as fastText sums them. */
export interface JsModel {
  dim: number;
  minn: number;
  maxn: number;
  bucket: number;
  /** 1 hs, 3 softmax (the two losses whose predictions this port reproduces). */
  loss: number;
  nwords: number;
  /** Word (UTF-8 bytes, as fastText compares them) → id for the in-vocabulary words (labels excluded). */
  words: WordTable;
  /** Labels in the dictionary's order, with their counts (hs builds its tree from them). */
  labels: string[];
  labelCounts: number[];
  /**
   * Subword bucket → row offset (`pruneidx`); null when the model is not pruned. Built on first use: with the C addon
   * only the JavaScript predictor's fallback reads it (the addon builds its own table from `prunePairs`).
   */
  readonly prune: BucketTable | null;
  /** `pruneidx` as the file stores it, (bucket, row) pairs; null when the model is not pruned. */
  prunePairs: Int32Array | null;
  /** The input matrix was stored quantized (a `.ftz`). */
  quantized: boolean;
  /** Input matrix, a row at a time. */
  input: InputMatrix;
  /** Output matrix, row-major (dense: a quantized one multiplies by its norm after the sum, left to WebAssembly). */
  output: Float32Array;
}

/**
 * The input matrix, row by row as `addRow` adds it: for a quantized matrix, element = fround(norm · centroid), what
 * `addcode(x, codes, i, norm)` adds. Rows are decoded when a token first needs them: a corpus reads a fraction of
 * lid.176's 50,000, and decoding them all cost more than the rest of loading.
 */
export interface InputMatrix {
  readonly rows: number;
  /** Writes row `i` (dim floats) into `out` from `at`. */
  decode(i: number, out: Float32Array, at: number): void;
  /** What the C addon decodes itself (native/fasttext.c): the rows of a dense matrix, or a quantized one's parts. */
  readonly stored: { dense: Float32Array } | { codes: Uint8Array; centroids: Float32Array; norms: Float32Array | null; nsubq: number; dsub: number; lastdsub: number };
}

/** Little-endian reads from the model file; methods, not closures, as the dictionary loop runs them thousands of times. */
class Cursor {
  pos = 0;
  constructor(private readonly b: Buffer) {}
  i8(): number {
    return this.b.readInt8(this.pos++);
  }
  u8(): number {
    return this.b.readUInt8(this.pos++);
  }
  i32(): number {
    this.pos += 4;
    return this.b.readInt32LE(this.pos - 4);
  }
  /** An int64 as a Number (exact below 2^53, as every count and size is) without a BigInt. */
  i64(): number {
    this.pos += 8;
    return this.b.readUInt32LE(this.pos - 8) + this.b.readInt32LE(this.pos - 4) * 2 ** 32;
  }
  f64(): number {
    this.pos += 8;
    return this.b.readDoubleLE(this.pos - 8);
  }
  f32s(n: number): Float32Array {
    const out = new Float32Array(n);
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(this.b.subarray(this.pos, this.pos + n * 4));
    else for (let i = 0; i < n; i++) out[i] = this.b.readFloatLE(this.pos + i * 4);
    this.pos += n * 4;
    return out;
  }
  /** n int32s copied out at once: one call each would dominate loading (the prune index has tens of thousands). */
  i32s(n: number): Int32Array {
    const out = new Int32Array(n);
    if (LITTLE_ENDIAN) new Uint8Array(out.buffer).set(this.b.subarray(this.pos, this.pos + n * 4));
    else for (let i = 0; i < n; i++) out[i] = this.b.readInt32LE(this.pos + i * 4);
    this.pos += n * 4;
    return out;
  }
  bytes(n: number): Uint8Array {
    this.pos += n;
    return this.b.subarray(this.pos - n, this.pos);
  }
  /** Moves past a NUL-terminated string; where it ends (its NUL). */
  skipString(): number {
    const end = this.b.indexOf(0, this.pos);
    this.pos = end + 1;
    return end;
  }
}

/** Typed arrays use the platform's byte order; the file's is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(Float32Array.of(1).buffer)[3] === 0x3f;

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

/** A DenseMatrix, row-major. */
function readDense(c: Cursor): Float32Array {
  const m = c.i64();
  const n = c.i64();
  return c.f32s(m * n);
}

/** The input matrix, dense or a QuantMatrix (product-quantized codes, optionally quantized norms). */
function readInput(c: Cursor, quantized: boolean, dim: number): InputMatrix {
  if (!quantized) {
    const data = readDense(c);
    const rows = Math.floor(data.length / dim);
    return { rows, decode: (i, out, at) => out.set(data.subarray(i * dim, i * dim + dim), at), stored: { dense: data.subarray(0, rows * dim) } };
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
    // centroidAt(npq, 0, code), its one multiplier taken out of a loop that runs once per row (50,000 for lid.176)
    // while the code is still interpreted.
    const width = npq.nsubq === 1 ? npq.lastdsub : npq.dsub;
    const { centroids: nc } = npq;
    for (let i = 0; i < m; i++) norms[i] = nc[(normCodes[i] as number) * width] as number;
  }
  const { nsubq, dsub, lastdsub, centroids } = pq;
  const decode = (i: number, out: Float32Array, row: number): void => {
    const alpha = norms === null ? 1 : (norms[i] as number);
    for (let q = 0; q < nsubq; q++) {
      const at = centroidAt(pq, q, codes[i * nsubq + q] as number);
      const base = row + q * dsub - at;
      const end = at + (q === nsubq - 1 ? lastdsub : dsub);
      for (let k = at; k < end; k++) out[base + k] = Math.fround(alpha * (centroids[k] as number));
    }
  };
  return { rows: m, decode, stored: { codes, centroids, norms, nsubq, dsub, lastdsub } };
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
  const labels: string[] = [];
  const labelCounts: number[] = [];
  /** start, end and id of each word: words stay bytes (no string per word), labels become strings. */
  const spans: number[] = [];
  let wordBytes = 0;
  for (let i = 0; i < size; i++) {
    const start = c.pos;
    const end = c.skipString();
    // Each entry: the word, its count (int64; only labels' counts matter) and its type (0 word, 1 label).
    if (b[end + 9] === 0) {
      spans.push(start, end, i);
      wordBytes += end - start;
      c.pos += 9;
    } else {
      labels.push(b.toString('utf8', start, end));
      labelCounts.push(c.i64());
      c.pos++;
    }
  }
  const words = new WordTable(spans.length / 3, wordBytes);
  for (let j = 0; j < spans.length; j += 3) words.set(b, spans[j] as number, spans[j + 1] as number, spans[j + 2] as number);
  const prunePairs = pruneSize >= 0 ? c.i32s(pruneSize * 2) : null;
  let pruneMax = -1;
  if (prunePairs !== null) for (let i = 1; i < prunePairs.length; i += 2) pruneMax = Math.max(pruneMax, prunePairs[i] as number);
  const quantInput = c.u8() !== 0;
  const input = readInput(c, quantInput, dim as number);
  if (c.u8() !== 0 && quantInput) return null;
  const output = readDense(c);
  // Every row a token can name must exist (fastText would read past its matrix).
  if (nwords + (prunePairs === null ? (bucket as number) : pruneMax + 1) > input.rows) return null;
  let prune: BucketTable | null | undefined;
  return {
    quantized: quantInput, dim: dim as number, minn: minn as number, maxn: maxn as number, bucket: bucket as number, loss: loss as number,
    nwords, words, labels, labelCounts, prunePairs, input, output,
    get prune(): BucketTable | null {
      return (prune ??= prunePairs === null ? null : BucketTable.fromPairs(prunePairs, bucket as number));
    },
  };
}
