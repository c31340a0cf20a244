// The MinHash inner loop as a hand-assembled WebAssembly module: native u64 wraparound, ~100x faster than BigInt.

/*
 * (func $sig (param $n i32) (param $h i32) (param $ab i32) (param $out i32) (param $k i32) (param $mask i64)
 *   for j in 0..k: a = ab[2j], b = ab[2j+1], min = 2^64-1
 *     for each u64 h at $h .. $h+8n: v = h*a + b (mod 2^64); v = v mod P; v &= mask; min = min_u(min, v)
 *     out[j] = min)
 * `v mod P` for P = 2^61-1 is computed as `(v & P) + (v >> 61)`, then one conditional `- P`: since
 * 2^61 ≡ 1 (mod P) this equals `v % P` for every u64 v (the sum is < 2P), and avoids a 64-bit division.
 */

const I32 = 0x7f;
const I64 = 0x7e;

function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];

// Opcodes.
const GET = 0x20, SET = 0x21, TEE = 0x22, I32C = 0x41, I64C = 0x42;
const BLOCK = 0x02, LOOP = 0x03, BR = 0x0c, BR_IF = 0x0d, END = 0x0b, SELECT = 0x1b;
const I32_GE_U = 0x4f, I32_ADD = 0x6a, I32_SHL = 0x74;
const I64_LT_U = 0x54, I64_GE_U = 0x5a, I64_ADD = 0x7c, I64_SUB = 0x7d, I64_MUL = 0x7e, I64_AND = 0x83, I64_SHR_U = 0x88;
const LOAD64 = (offset: number): number[] => [0x29, 3, ...uleb(offset)];
const STORE64 = [0x37, 3, 0];

// Locals: params n=0 h=1 ab=2 out=3 k=4 mask=5; i32 j=6 p=7 end=8; i64 a=9 b=10 min=11 v=12.
const [N, H, AB, OUT, K, MASK, J, P, E, A, B, MIN, V] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
const PRIME = sleb((1n << 61n) - 1n);

const body: number[] = [
  ...[GET, H, GET, N, I32C, 3, I32_SHL, I32_ADD, SET, E],
  ...[I32C, 0, SET, J],
  ...[BLOCK, 0x40, LOOP, 0x40],
  ...[GET, J, GET, K, I32_GE_U, BR_IF, 1],
  ...[GET, AB, GET, J, I32C, 4, I32_SHL, I32_ADD, TEE, P, ...LOAD64(0), SET, A],
  ...[GET, P, ...LOAD64(8), SET, B],
  ...[I64C, ...sleb(-1n), SET, MIN, GET, H, SET, P],
  ...[BLOCK, 0x40, LOOP, 0x40],
  ...[GET, P, GET, E, I32_GE_U, BR_IF, 1],
  // v = h * a + b (wraps mod 2^64)
  ...[GET, P, ...LOAD64(0), GET, A, I64_MUL, GET, B, I64_ADD, TEE, V],
  // v = (v & P) + (v >> 61)
  ...[I64C, ...PRIME, I64_AND, GET, V, I64C, 61, I64_SHR_U, I64_ADD, SET, V],
  // v = v >= P ? v - P : v
  ...[GET, V, I64C, ...PRIME, I64_SUB, GET, V, GET, V, I64C, ...PRIME, I64_GE_U, SELECT, GET, MASK, I64_AND, SET, V],
  // min = v < min ? v : min
  ...[GET, V, GET, MIN, GET, V, GET, MIN, I64_LT_U, SELECT, SET, MIN],
  ...[GET, P, I32C, 8, I32_ADD, SET, P, BR, 0, END, END],
  ...[GET, OUT, GET, J, I32C, 3, I32_SHL, I32_ADD, GET, MIN, ...STORE64],
  ...[GET, J, I32C, 1, I32_ADD, SET, J, BR, 0, END, END],
  END,
];

/** The module's bytes: one function `sig`, one exported growable memory `mem`. */
export function minhashWasmBytes(): Uint8Array {
  const fn = [...vec([[3, I32], [4, I64]]), ...body];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec([[0x60, ...vec([[I32], [I32], [I32], [I32], [I32], [I64]]), 0]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([[...name('sig'), 0x00, 0], [...name('mem'), 0x02, 0]])),
    ...section(10, vec([[...uleb(fn.length), ...fn]])),
  ]);
}

/** The slice of the WebAssembly API used here (the engine's TS lib has no DOM/WebAssembly declarations). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

export interface MinhashKernel {
  memory: WasmMemory;
  sig(n: number, hashesOffset: number, paramsOffset: number, outOffset: number, k: number, mask: bigint): void;
}

let compiled: object | undefined;

/** A fresh instance (its own memory). Compiled synchronously: the module is tiny, and Node allows it. */
export function createKernel(): MinhashKernel {
  compiled ??= new WASM.Module(minhashWasmBytes());
  const inst = new WASM.Instance(compiled, {});
  const ex = inst.exports as unknown as { sig: MinhashKernel['sig']; mem: WasmMemory };
  return { memory: ex.mem, sig: ex.sig };
}
