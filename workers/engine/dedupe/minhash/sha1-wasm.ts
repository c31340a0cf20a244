// SHA-1 of every shingle of a document in one WebAssembly call: one-block shingles 4 at a time in SIMD, longer ones scalar.
import { call, get, i32c, i64c, I32, I64, load32, load64, op, set, store32, store64, tee, VOID, type AsmFunction } from './asm.js';
import { bswap, INIT, K, rotate } from './sha1-common.js';
import { sha1x4Function } from './sha1x4-wasm.js';

/*
 * (func $sha1 (param $count i32) (param $buf i32) (param $starts i32) (param $n i32) (param $out i32)
 *             (param $scratch i32) (param $mask i64))
 * Shingle i is the bytes [buf + starts[i], buf + starts[i + n] - 1): n tokens and the single spaces between
 * them (the token after a shingle starts one separator byte later). out[i] = (first 8 digest bytes read as a
 * little-endian u64, DataTrove's `struct.unpack("<Q", sha1(s).digest()[:8])`) & mask; mask 0xFFFFFFFF gives
 * the 32-bit `"<I"` of the first 4 bytes. A shingle of at most 55 bytes is one padded block: those are queued
 * (index, address, length) in the scratch area and compressed 4 at a time by `sha1x4`, which reads them in place;
 * longer ones go through `sha1one`. Scratch (256 bytes): the queue at +0, sha1x4's spare outputs at +64, `sha1one`'s
 * two tail blocks at +128. Reads go up to SHA1_SLACK bytes past the last shingle (the caller keeps that slack).
 */

/** Copies bytes [src, src + r) to dst followed by 0x80, in whole 8-byte words; dst must be zeroed. */
function padTail(src: number, r: number, dst: number, q: number, sh: number): number[] {
  return [
    ...i32c(0), ...set(q),
    op.block, VOID, op.loop, VOID,
    ...get(r), ...get(q), op.i32Sub, ...i32c(8), op.i32LtU, op.brIf, 1,
    ...get(dst), ...get(q), op.i32Add, ...get(src), ...get(q), op.i32Add, ...load64(), ...store64(),
    ...get(q), ...i32c(8), op.i32Add, ...set(q), op.br, 0,
    op.end, op.end,
    ...get(r), ...get(q), op.i32Sub, ...i32c(3), op.i32Shl, op.i64ExtendI32U, ...set(sh),
    ...get(dst), ...get(q), op.i32Add,
    ...get(src), ...get(q), op.i32Add, ...load64(), ...i64c(1n), ...get(sh), op.i64Shl, ...i64c(1n), op.i64Sub, op.i64And,
    ...i64c(0x80n), ...get(sh), op.i64Shl, op.i64Or, ...store64(),
  ];
}

const zero = (ptr: number, bytes: number): number[] =>
  Array.from({ length: bytes / 8 }, (_, k) => [...get(ptr), ...i64c(0n), ...store64(8 * k)]).flat();

/** (func $sha1one (param $msg i32) (param $len i32) (param $scratch i32) (param $dst i32) (param $mask i64)) */
function sha1one(): AsmFunction {
  const [MSG, LEN, SCRATCH, DST, MASK] = [0, 1, 2, 3, 4];
  const [NFULL, R, TOTAL, BLK, SRC, Q, X] = [5, 6, 7, 8, 9, 10, 11];
  const H = [12, 13, 14, 15, 16];
  const S = [17, 18, 19, 20, 21];
  const W = Array.from({ length: 16 }, (_, k) => 22 + k);
  const SH = 38;
  const compress: number[] = [];
  for (let k = 0; k < 16; k++) compress.push(...get(SRC), ...load32(4 * k), ...set(X), ...bswap(X), ...set(W[k] as number));
  for (let k = 0; k < 5; k++) compress.push(...get(H[k] as number), ...set(S[k] as number));
  let s = [...S];
  for (let t = 0; t < 80; t++) {
    compress.push(...round(t, s, W));
    s = rotate(s);
  }
  for (let k = 0; k < 5; k++) compress.push(...get(H[k] as number), ...get(s[k] as number), op.i32Add, ...set(H[k] as number));
  const body = [
    ...get(LEN), ...i32c(6), op.i32ShrU, ...set(NFULL),
    ...get(LEN), ...i32c(63), op.i32And, ...set(R),
    ...zero(SCRATCH, 128),
    ...get(MSG), ...get(NFULL), ...i32c(6), op.i32Shl, op.i32Add, ...set(SRC),
    ...padTail(SRC, R, SCRATCH, Q, SH),
    // One padding block when the tail leaves room for the 8-byte big-endian bit length, else two.
    ...get(NFULL), ...i32c(1), ...i32c(2), ...get(R), ...i32c(56), op.i32LtU, op.select, op.i32Add, ...set(TOTAL),
    ...get(SCRATCH), ...i32c(56), ...i32c(120), ...get(R), ...i32c(56), op.i32LtU, op.select, op.i32Add, ...set(Q),
    ...get(LEN), ...i32c(29), op.i32ShrU, ...set(X), ...get(Q), ...bswap(X), ...store32(0),
    ...get(LEN), ...i32c(3), op.i32Shl, ...set(X), ...get(Q), ...bswap(X), ...store32(4),
    ...INIT.flatMap((h, k) => [...i32c(h), ...set(H[k] as number)]),
    ...i32c(0), ...set(BLK),
    op.block, VOID, op.loop, VOID,
    ...get(BLK), ...get(TOTAL), op.i32GeU, op.brIf, 1,
    ...get(MSG), ...get(BLK), ...i32c(6), op.i32Shl, op.i32Add,
    ...get(SCRATCH), ...get(BLK), ...get(NFULL), op.i32Sub, ...i32c(6), op.i32Shl, op.i32Add,
    ...get(BLK), ...get(NFULL), op.i32LtU, op.select, ...set(SRC),
    ...compress,
    ...get(BLK), ...i32c(1), op.i32Add, ...set(BLK), op.br, 0,
    op.end, op.end,
    ...get(DST),
    ...bswap(H[1] as number), op.i64ExtendI32U, ...i64c(32n), op.i64Shl, ...bswap(H[0] as number), op.i64ExtendI32U, op.i64Or,
    ...get(MASK), op.i64And, ...store64(),
  ];
  return { name: 'sha1one', params: [I32, I32, I32, I32, I64], locals: [[SH - NFULL, I32], [1, I64]], body };
}

/** One scalar round; `s` names the locals currently playing a, b, c, d, e. */
function round(t: number, s: number[], W: number[]): number[] {
  const [a, b, c, d, e] = s as [number, number, number, number, number];
  let f: number[];
  if (t < 20) f = [...get(d), ...get(b), ...get(c), ...get(d), op.i32Xor, op.i32And, op.i32Xor];
  else if (t >= 40 && t < 60) f = [...get(b), ...get(c), op.i32And, ...get(d), ...get(b), ...get(c), op.i32Or, op.i32And, op.i32Or];
  else f = [...get(b), ...get(c), op.i32Xor, ...get(d), op.i32Xor];
  const w = W[t & 15] as number;
  const word = t < 16 ? get(w) : [
    ...get(W[(t - 3) & 15] as number), ...get(W[(t - 8) & 15] as number), op.i32Xor,
    ...get(W[(t - 14) & 15] as number), op.i32Xor, ...get(w), op.i32Xor, ...i32c(1), op.i32Rotl, ...tee(w),
  ];
  return [
    ...get(a), ...i32c(5), op.i32Rotl, ...f, op.i32Add, ...get(e), op.i32Add, ...i32c(K[Math.floor(t / 20)] as number), op.i32Add,
    ...word, op.i32Add, ...set(e),
    ...get(b), ...i32c(30), op.i32Rotl, ...set(b),
  ];
}

/** The driver `sha1`; `base` is its function index, `sha1one` and `sha1x4` follow it. */
function driver(base: number): AsmFunction {
  const [COUNT, BUF, STARTS, N, OUT, SCRATCH, MASK] = [0, 1, 2, 3, 4, 5, 6];
  const [I, MSG, LEN, G, SLOT] = [7, 8, 9, 10, 11];
  const body = [
    ...i32c(0), ...set(I), ...i32c(0), ...set(G),
    // Every lane starts on a readable empty shingle: sha1x4 loads all four lanes even when fewer are queued.
    ...[0, 1, 2, 3].flatMap((L) => [...get(SCRATCH), ...get(BUF), ...store32(16 + 4 * L), ...get(SCRATCH), ...i32c(0), ...store32(32 + 4 * L)]),
    op.block, VOID, op.loop, VOID,
    ...get(I), ...get(COUNT), op.i32GeU, op.brIf, 1,
    ...get(BUF), ...get(STARTS), ...get(I), ...i32c(2), op.i32Shl, op.i32Add, ...load32(), op.i32Add, ...set(MSG),
    ...get(BUF), ...get(STARTS), ...get(I), ...get(N), op.i32Add, ...i32c(2), op.i32Shl, op.i32Add, ...load32(), op.i32Add,
    ...i32c(1), op.i32Sub, ...get(MSG), op.i32Sub, ...set(LEN),
    ...get(LEN), ...i32c(56), op.i32LtU,
    op.if, VOID,
    ...get(SCRATCH), ...get(G), ...i32c(2), op.i32Shl, op.i32Add, ...set(SLOT),
    ...get(SLOT), ...get(I), ...store32(0), ...get(SLOT), ...get(MSG), ...store32(16), ...get(SLOT), ...get(LEN), ...store32(32),
    ...get(G), ...i32c(1), op.i32Add, ...tee(G), ...i32c(4), op.i32GeU,
    op.if, VOID,
    ...get(SCRATCH), ...get(OUT), ...get(MASK), ...i32c(4), ...call(base + 2), ...i32c(0), ...set(G),
    op.end,
    op.else,
    ...get(MSG), ...get(LEN), ...get(SCRATCH), ...i32c(128), op.i32Add,
    ...get(OUT), ...get(I), ...i32c(3), op.i32Shl, op.i32Add, ...get(MASK), ...call(base + 1),
    op.end,
    ...get(I), ...i32c(1), op.i32Add, ...set(I), op.br, 0,
    op.end, op.end,
    ...get(G),
    op.if, VOID,
    ...get(SCRATCH), ...get(OUT), ...get(MASK), ...get(G), ...call(base + 2),
    op.end,
  ];
  return { name: 'sha1', params: [I32, I32, I32, I32, I32, I32, I64], locals: [[5, I32]], body };
}

/** `sha1`, `sha1one`, `sha1x4`, to be placed at function indices base, base + 1, base + 2. */
export const sha1Functions = (base: number): AsmFunction[] => [driver(base), sha1one(), sha1x4Function];

/** Bytes of scratch the `sha1` function needs. */
export const SHA1_SCRATCH = 256;
/** Bytes after the text the kernel may read: sha1x4 loads whole 64-byte blocks from a shingle's start. */
export const SHA1_SLACK = 64;
