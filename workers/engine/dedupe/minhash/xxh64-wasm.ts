// XXH64 (seed 0) of every shingle of a document in one WebAssembly call: xxhash-wasm costs a JS→wasm trip per shingle.
import { get, i32c, i64c, I32, I64, i64load32u, load32, load64, load8u, op, set, store64, tee, VOID, type AsmFunction } from './asm.js';

/*
 * (func $xxh64 (param $count i32) (param $buf i32) (param $starts i32) (param $n i32) (param $out i32))
 * out[i] = XXH64(bytes [buf + starts[i], buf + starts[i + n] - 1), seed 0), the reference algorithm
 * (xxhash.h: 4 lanes over 32-byte stripes, then 8-, 4- and 1-byte tails, then the avalanche).
 */

const P1 = 0x9e3779b185ebca87n;
const P2 = 0xc2b2ae3d27d4eb4fn;
const P3 = 0x165667b19e3779f9n;
const P4 = 0x85ebca77c2b2ae63n;
const P5 = 0x27d4eb2f165667c5n;

const [COUNT, BUF, STARTS, N, OUT] = [0, 1, 2, 3, 4];
const [I, PTR, END, LIMIT] = [5, 6, 7, 8];
const [HASH, V1, V2, V3, V4] = [9, 10, 11, 12, 13];
const LANES = [V1, V2, V3, V4];

/** acc = rotl(acc + input * P2, 31) * P1, with `input` already on the stack. */
const round = (acc: number): number[] => [
  ...i64c(P2), op.i64Mul, ...get(acc), op.i64Add, ...i64c(31n), op.i64Rotl, ...i64c(P1), op.i64Mul, ...set(acc),
];
/** HASH = (HASH ^ round(0, lane)) * P1 + P4. */
const merge = (lane: number): number[] => [
  ...get(HASH), ...get(lane), ...i64c(P2), op.i64Mul, ...i64c(31n), op.i64Rotl, ...i64c(P1), op.i64Mul, op.i64Xor,
  ...i64c(P1), op.i64Mul, ...i64c(P4), op.i64Add, ...set(HASH),
];
const whileLoop = (cond: number[], step: number[]): number[] => [
  op.block, VOID, op.loop, VOID, ...cond, op.i32Eqz, op.brIf, 1, ...step, op.br, 0, op.end, op.end,
];
/** PTR + k <= END, as i32 (lengths fit easily). */
const fits = (k: number): number[] => [...get(END), ...get(PTR), op.i32Sub, ...i32c(k), op.i32GeS];
const advance = (k: number): number[] => [...get(PTR), ...i32c(k), op.i32Add, ...set(PTR)];

const body: number[] = [
  ...i32c(0), ...set(I),
  op.block, VOID, op.loop, VOID,
  ...get(I), ...get(COUNT), op.i32GeU, op.brIf, 1,
  ...get(BUF), ...get(STARTS), ...get(I), ...i32c(2), op.i32Shl, op.i32Add, ...load32(), op.i32Add, ...set(PTR),
  ...get(BUF), ...get(STARTS), ...get(I), ...get(N), op.i32Add, ...i32c(2), op.i32Shl, op.i32Add, ...load32(), op.i32Add,
  ...i32c(1), op.i32Sub, ...set(END),
  ...fits(32),
  op.if, VOID,
  ...i64c(P1 + P2), ...set(V1), ...i64c(P2), ...set(V2), ...i64c(0n), ...set(V3), ...i64c(-P1), ...set(V4),
  ...get(END), ...i32c(32), op.i32Sub, ...set(LIMIT),
  op.loop, VOID,
  ...LANES.flatMap((lane, k) => [...get(PTR), ...load64(8 * k), ...round(lane)]),
  ...advance(32),
  ...get(PTR), ...get(LIMIT), op.i32Sub, ...i32c(0), op.i32LeS, op.brIf, 0,
  op.end,
  ...get(V1), ...i64c(1n), op.i64Rotl, ...get(V2), ...i64c(7n), op.i64Rotl, op.i64Add,
  ...get(V3), ...i64c(12n), op.i64Rotl, op.i64Add, ...get(V4), ...i64c(18n), op.i64Rotl, op.i64Add, ...set(HASH),
  ...LANES.flatMap(merge),
  op.else,
  ...i64c(P5), ...set(HASH),
  op.end,
  // h += total length (END - start: recomputed from starts[i] so PTR can have moved)
  ...get(HASH), ...get(END), ...get(BUF), op.i32Sub, ...get(STARTS), ...get(I), ...i32c(2), op.i32Shl, op.i32Add, ...load32(),
  op.i32Sub, op.i64ExtendI32U, op.i64Add, ...set(HASH),
  ...whileLoop(fits(8), [
    ...get(HASH), ...get(PTR), ...load64(), ...i64c(P2), op.i64Mul, ...i64c(31n), op.i64Rotl, ...i64c(P1), op.i64Mul, op.i64Xor,
    ...i64c(27n), op.i64Rotl, ...i64c(P1), op.i64Mul, ...i64c(P4), op.i64Add, ...set(HASH), ...advance(8),
  ]),
  ...fits(4),
  op.if, VOID,
  ...get(HASH), ...get(PTR), ...i64load32u(), ...i64c(P1), op.i64Mul, op.i64Xor,
  ...i64c(23n), op.i64Rotl, ...i64c(P2), op.i64Mul, ...i64c(P3), op.i64Add, ...set(HASH), ...advance(4),
  op.end,
  ...whileLoop(fits(1), [
    ...get(HASH), ...get(PTR), ...load8u(), op.i64ExtendI32U, ...i64c(P5), op.i64Mul, op.i64Xor,
    ...i64c(11n), op.i64Rotl, ...i64c(P1), op.i64Mul, ...set(HASH), ...advance(1),
  ]),
  ...get(OUT), ...get(I), ...i32c(3), op.i32Shl, op.i32Add,
  ...get(HASH), ...get(HASH), ...i64c(33n), op.i64ShrU, op.i64Xor, ...i64c(P2), op.i64Mul, ...tee(HASH),
  ...get(HASH), ...i64c(29n), op.i64ShrU, op.i64Xor, ...i64c(P3), op.i64Mul, ...tee(HASH),
  ...get(HASH), ...i64c(32n), op.i64ShrU, op.i64Xor, ...store64(),
  ...get(I), ...i32c(1), op.i32Add, ...set(I), op.br, 0,
  op.end, op.end,
];

export const xxh64Function: AsmFunction = {
  name: 'xxh64',
  params: [I32, I32, I32, I32, I32],
  locals: [[4, I32], [5, I64]],
  body,
};
