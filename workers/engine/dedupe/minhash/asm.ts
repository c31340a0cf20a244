// A tiny WebAssembly assembler (byte emitters, opcodes, module layout): no wat compiler ships with Node.

export const I32 = 0x7f;
export const I64 = 0x7e;
export const V128 = 0x7b;

export function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

export function sleb(v: bigint): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (byte & 0x40) === 0) || (v === -1n && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

/** Opcodes used by the kernels (names as in the text format, dots dropped). */
export const op = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d, call: 0x10, select: 0x1b,
  get: 0x20, set: 0x21, tee: 0x22,
  i32Eqz: 0x45, i32LtU: 0x49, i32LeS: 0x4c, i32GeS: 0x4e, i32GeU: 0x4f,
  i64LtU: 0x54, i64GeU: 0x5a,
  i32Add: 0x6a, i32Sub: 0x6b, i32And: 0x71, i32Or: 0x72, i32Xor: 0x73,
  i32Shl: 0x74, i32ShrU: 0x76, i32Rotl: 0x77, i32Rotr: 0x78,
  i64Add: 0x7c, i64Sub: 0x7d, i64Mul: 0x7e, i64And: 0x83, i64Or: 0x84, i64Xor: 0x85,
  i64Shl: 0x86, i64ShrU: 0x88, i64Rotl: 0x89,
  i64ExtendI32U: 0xad,
} as const;

/** Block type "no result". */
export const VOID = 0x40;

export const i32c = (n: number): number[] => [0x41, ...sleb(BigInt(n | 0))];
export const i64c = (v: bigint): number[] => [0x42, ...sleb(BigInt.asIntN(64, v))];
export const get = (l: number): number[] => [op.get, ...uleb(l)];
export const set = (l: number): number[] => [op.set, ...uleb(l)];
export const tee = (l: number): number[] => [op.tee, ...uleb(l)];
export const load32 = (offset = 0): number[] => [0x28, 2, ...uleb(offset)];
export const load64 = (offset = 0): number[] => [0x29, 3, ...uleb(offset)];
export const store32 = (offset = 0): number[] => [0x36, 2, ...uleb(offset)];
export const store64 = (offset = 0): number[] => [0x37, 3, ...uleb(offset)];
export const load8u = (offset = 0): number[] => [0x2d, 0, ...uleb(offset)];
export const i64load32u = (offset = 0): number[] => [0x35, 2, ...uleb(offset)];
export const call = (fn: number): number[] => [op.call, ...uleb(fn)];

/** SIMD opcodes (0xFD prefix, LEB128 sub-opcode). */
const simd = (sub: number): number[] => [0xfd, ...uleb(sub)];
export const v = {
  load: (offset = 0): number[] => [...simd(0x00), 4, ...uleb(offset)],
  i64x2Splat: simd(0x12),
  i64x2ExtractLane: (lane: number): number[] => [...simd(0x1d), lane],
  and: simd(0x4e),
  bitselect: simd(0x52),
  const: (bytes: number[]): number[] => [...simd(0x0c), ...bytes],
  i8x16Splat: simd(0x0f),
  i8x16Eq: simd(0x23),
  i8x16LtU: simd(0x26),
  i32x4Splat: simd(0x11),
  i32x4ReplaceLane: (lane: number): number[] => [...simd(0x1c), lane],
  i32x4Add: simd(0xae),
  i32x4Shl: simd(0xab),
  i32x4ShrU: simd(0xad),
  or: simd(0x50),
  xor: simd(0x51),
  /** i8x16.shuffle: result byte k = byte lanes[k] of the 32-byte concatenation of the two operands. */
  shuffle: (lanes: number[]): number[] => [...simd(0x0d), ...lanes],
} as const;

const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const utf8Name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];

export interface AsmFunction {
  name: string;
  params: number[];
  /** Extra locals as [count, type] runs, numbered after the params. */
  locals: [number, number][];
  body: number[];
}

/** A module of exported functions without results, sharing one exported growable memory `mem` (1 page to start). */
export function moduleBytes(funcs: AsmFunction[]): Uint8Array {
  const types = funcs.map((f) => [0x60, ...vec(f.params.map((p) => [p])), 0]);
  const codes = funcs.map((f) => {
    const code = [...vec(f.locals.map(([n, t]) => [...uleb(n), t])), ...f.body, op.end];
    return [...uleb(code.length), ...code];
  });
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, vec(types)),
    ...section(3, vec(funcs.map((_, i) => uleb(i)))),
    ...section(5, vec([[0x00, 1]])),
    ...section(7, vec([...funcs.map((f, i) => [...utf8Name(f.name), 0x00, ...uleb(i)]), [...utf8Name('mem'), 0x02, 0]])),
    ...section(10, vec(codes)),
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

/** Compiles synchronously (the modules are a few KB, and Node allows it) and instantiates with no imports. */
export function instantiate(compiled: object): Record<string, unknown> {
  return new WASM.Instance(compiled, {}).exports;
}
export function compile(bytes: Uint8Array): object {
  return new WASM.Module(bytes);
}
const WASM = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
