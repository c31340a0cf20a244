// The hidden vector of fastText's `computeHidden`: input rows added in line order, each sum rounded to float32.

/**
 * hidden += each row of `rows[0, n)`, in order. The caller writes the input matrix's rows into `matrix` (row i at
 * i · dim) before naming them, and row ids into `rows` (after `reserve`, which may replace both). Every
 * implementation adds in float32, one row after the other, as fastText's `addRow` loop does.
 */
export interface RowSummer {
  rows: Int32Array;
  matrix: Float32Array;
  /** Room for `n` row ids; returns `rows` (a new array when it grew, keeping what was written). */
  reserve(n: number): Int32Array;
  sum(hidden: Float32Array, n: number): void;
}

/** The engine's TypeScript lib has no WebAssembly declarations; this is the part used here. */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

/** The fastest summer for a matrix of `rows` × `dim`: WebAssembly SIMD for dimension 16 (lid.176's), else plain JavaScript. */
export function rowSummer(rows: number, dim: number): RowSummer {
  return dim === 16 && wasm?.validate(SUM16) === true ? new WasmSummer(wasm, rows) : new JsSummer(rows, dim);
}

/** Any dimension: through the typed array, whose stores round each double sum of two floats to float32 exactly. */
export class JsSummer implements RowSummer {
  rows = new Int32Array(64);
  readonly matrix: Float32Array;

  constructor(
    rows: number,
    private readonly dim: number,
  ) {
    this.matrix = new Float32Array(rows * dim);
  }

  reserve(n: number): Int32Array {
    if (n > this.rows.length) {
      const grown = new Int32Array(Math.max(n, this.rows.length * 2));
      grown.set(this.rows);
      this.rows = grown;
    }
    return this.rows;
  }

  sum(hidden: Float32Array, n: number): void {
    const { matrix: input, dim, rows } = this;
    for (let r = 0; r < n; r++) {
      const at = (rows[r] as number) * dim;
      for (let d = 0; d < dim; d++) hidden[d] = (hidden[d] as number) + (input[at + d] as number);
    }
  }
}

/**
 * Dimension 16 in WebAssembly: four f32x4 accumulators, each `f32x4.add` four IEEE float32 additions, the same
 * roundings as JavaScript's, in the same order per dimension, at a fraction of the instructions (the loop is
 * bound by fetching rows). Memory: hidden at 0, the matrix at 64, the row ids after it.
 */
export class WasmSummer implements RowSummer {
  private readonly memory: WasmMemory;
  private readonly run: (rows: number, n: number, input: number, out: number) => void;
  private readonly rowsAt: number;
  rows: Int32Array;
  matrix: Float32Array;

  constructor(api: WasmApi, rows: number) {
    const instance = new api.Instance(new api.Module(SUM16));
    this.memory = instance.exports['memory'] as WasmMemory;
    this.run = instance.exports['sum'] as WasmSummer['run'];
    this.rowsAt = 64 + rows * 64;
    this.grow(this.rowsAt + 64);
    [this.rows, this.matrix] = this.views();
  }

  reserve(n: number): Int32Array {
    if (n > this.rows.length) {
      this.grow(this.rowsAt + Math.max(n, this.rows.length * 2) * 4);
      [this.rows, this.matrix] = this.views();
    }
    return this.rows;
  }

  sum(hidden: Float32Array, n: number): void {
    const out = new Float32Array(this.memory.buffer, 0, 16);
    out.set(hidden);
    this.run(this.rowsAt, n, 64, 0);
    hidden.set(out);
  }

  private grow(bytes: number): void {
    const pages = Math.ceil(bytes / 65536) - this.memory.buffer.byteLength / 65536;
    if (pages > 0) this.memory.grow(pages);
  }

  /** Growing the memory replaces its buffer: views of the row ids and of the matrix over the current one. */
  private views(): [Int32Array, Float32Array] {
    const { buffer } = this.memory;
    return [new Int32Array(buffer, this.rowsAt, (buffer.byteLength - this.rowsAt) >> 2), new Float32Array(buffer, 64, (this.rowsAt - 64) >> 2)];
  }
}

/** `sum(rows, n, input, out)`: out[0..16) += input row rows[i] for i < n, as four f32x4 lanes; exports its memory. */
const SUM16 = module(
  [0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0], // type: (i32 × 4) → ()
  [
    [2, 4, 0x7b, 1, 0x7f], // locals: 4 × v128 (the accumulators), 1 × i32 (the row's address)
    ...[0, 1, 2, 3].flatMap((q) => [0x20, 3, ...v128Load(16 * q), 0x21, 4 + q]),
    [0x02, 0x40, 0x03, 0x40], // block, loop
    [0x20, 1, 0x45, 0x0d, 1], // n == 0: leave
    [0x20, 2, 0x20, 0, 0x28, 2, 0, 0x41, 6, 0x74, 0x6a, 0x21, 8], // at = input + (rows[0] << 6)
    ...[0, 1, 2, 3].flatMap((q) => [0x20, 4 + q, 0x20, 8, ...v128Load(16 * q), 0xfd, 0xe4, 0x01, 0x21, 4 + q]),
    [0x20, 0, 0x41, 4, 0x6a, 0x21, 0], // rows += 4
    [0x20, 1, 0x41, 1, 0x6b, 0x21, 1], // n -= 1
    [0x0c, 0, 0x0b, 0x0b], // br loop, end loop, end block
    ...[0, 1, 2, 3].flatMap((q) => [0x20, 3, 0x20, 4 + q, 0xfd, 0x0b, 0, 16 * q]),
    [0x0b],
  ].flat(),
);

/** `v128.load` at an offset below 128 (one LEB byte), alignment hint 1. */
function v128Load(offset: number): number[] {
  return [0xfd, 0x00, 0, offset];
}

/** A module of one function of type `type` and body `body`, exported as `sum`, with its memory exported as `memory`. */
function module(type: number[], body: number[]): Uint8Array {
  const vec = (items: number[][]): number[] => [items.length, ...items.flat()];
  const section = (id: number, bytes: number[]): number[] => [id, ...leb(bytes.length), ...bytes];
  const name = (s: string): number[] => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, vec([type])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0, 1]])),
    ...section(7, vec([[...name('memory'), 2, 0], [...name('sum'), 0, 0]])),
    ...section(10, vec([[...leb(body.length), ...body]])),
  ]);
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    out.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n >>>= 7;
  } while (n > 0);
  return out;
}
