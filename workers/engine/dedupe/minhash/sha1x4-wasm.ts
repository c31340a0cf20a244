// Four one-block SHA-1 compressions at once in i32x4 lanes: the bulk of a document's shingles are under 56 bytes.
import { get, i32c, I32, I64, load32, op, set, store64, tee, v, V128, type AsmFunction } from './asm.js';
import { bswap, INIT, K, rotate } from './sha1-common.js';

/*
 * (func $sha1x4 (param $scratch i32) (param $out i32) (param $mask i64) (param $lanes i32))
 * Lane L reads its shingle in place: index, address and length (< 56) as u32 at $scratch + 4L, + 16 + 4L and
 * + 32 + 4L. The padded block is built in registers: bytes past the length masked off, 0x80 after them, the bit
 * length in the last word; the 64-byte loads may read up to 63 bytes past the shingle (the caller keeps slack).
 * Lanes L < $lanes write out[index] = (first 8 digest bytes, little-endian) & $mask; the others write into
 * $scratch + 64 + 8L, so every lane needs a readable address (the caller leaves earlier or dummy shingles there).
 */

const [SCRATCH, OUT, MASK, LANES] = [0, 1, 2, 3];
const MSG = [4, 5, 6, 7];
const LEN = 8;
const v128Base = 9;
const S = [0, 1, 2, 3, 4].map((k) => v128Base + k);
const W = Array.from({ length: 16 }, (_, k) => v128Base + 5 + k);
const KV = [0, 1, 2, 3].map((k) => v128Base + 21 + k);
const R = [0, 1, 2, 3].map((k) => v128Base + 25 + k);
const T = [0, 1, 2, 3].map((k) => v128Base + 29 + k);
const LENV = [0, 1, 2, 3].map((k) => v128Base + 33 + k);
const X = v128Base + 37;
const H = [v128Base + 38, v128Base + 39];
const [C80, IDX] = [v128Base + 40, [0, 1, 2, 3].map((k) => v128Base + 41 + k)];
const V128_COUNT = 45;

const range = (a: number, n: number): number[] => Array.from({ length: n }, (_, k) => a + k);
const be = (w: number): number[] => [4 * w + 3, 4 * w + 2, 4 * w + 1, 4 * w];
/** Interleave words of two rows, byte-swapping each: (x_w, y_w, x_w+1, y_w+1). */
const interleaveBswap = (w: number): number[] => [...be(w), ...be(w + 4), ...be(w + 1), ...be(w + 5)];

const rotl = (x: number, n: number): number[] => [...get(x), ...i32c(n), ...v.i32x4Shl, ...get(x), ...i32c(32 - n), ...v.i32x4ShrU, ...v.or];

/** Row g (bytes 16g..16g+15) of lane L's padded block. */
function row(L: number, g: number): number[] {
  const [msg, lenv, idx] = [MSG[L], LENV[L], IDX[g]] as [number, number, number];
  const code = [
    ...get(msg), ...v.load(16 * g),
    ...get(idx), ...get(lenv), ...v.i8x16Eq, ...get(C80), ...v.and,
    ...get(idx), ...get(lenv), ...v.i8x16LtU, ...v.bitselect,
  ];
  // Bytes 60..63 are past the shingle (< 56 bytes) and its marker: the big-endian bit length goes there.
  if (g === 3) code.push(...get(SCRATCH), ...load32(32 + 4 * L), ...i32c(3), op.i32Shl, ...set(LEN), ...bswap(LEN), ...v.i32x4ReplaceLane(3));
  return [...code, ...set(R[L] as number)];
}

/** W[4g .. 4g+3] as columns across the four blocks: a 4×4 transpose of 32-bit words, with the byte swap folded in. */
function loadWords(g: number): number[] {
  const code: number[] = [];
  for (let L = 0; L < 4; L++) code.push(...row(L, g));
  const [r0, r1, r2, r3] = R as [number, number, number, number];
  const [t0, t1, t2, t3] = T as [number, number, number, number];
  code.push(...get(r0), ...get(r1), ...v.shuffle(interleaveBswap(0)), ...set(t0));
  code.push(...get(r0), ...get(r1), ...v.shuffle(interleaveBswap(2)), ...set(t1));
  code.push(...get(r2), ...get(r3), ...v.shuffle(interleaveBswap(0)), ...set(t2));
  code.push(...get(r2), ...get(r3), ...v.shuffle(interleaveBswap(2)), ...set(t3));
  const lo = [...range(0, 8), ...range(16, 8)];
  const hi = [...range(8, 8), ...range(24, 8)];
  code.push(...get(t0), ...get(t2), ...v.shuffle(lo), ...set(W[4 * g] as number));
  code.push(...get(t0), ...get(t2), ...v.shuffle(hi), ...set(W[4 * g + 1] as number));
  code.push(...get(t1), ...get(t3), ...v.shuffle(lo), ...set(W[4 * g + 2] as number));
  code.push(...get(t1), ...get(t3), ...v.shuffle(hi), ...set(W[4 * g + 3] as number));
  return code;
}

function round(t: number, s: number[]): number[] {
  const [a, b, c, d, e] = s as [number, number, number, number, number];
  let f: number[];
  if (t < 20) f = [...get(c), ...get(d), ...get(b), ...v.bitselect]; // (b & c) | (~b & d)
  else if (t >= 40 && t < 60) f = [...get(b), ...get(c), ...get(c), ...get(d), ...v.xor, ...v.bitselect]; // c == d ? c : b
  else f = [...get(b), ...get(c), ...v.xor, ...get(d), ...v.xor];
  const w = W[t & 15] as number;
  const word = t < 16 ? get(w) : [
    ...get(W[(t - 3) & 15] as number), ...get(W[(t - 8) & 15] as number), ...v.xor,
    ...get(W[(t - 14) & 15] as number), ...v.xor, ...get(w), ...v.xor, ...set(X), ...rotl(X, 1), ...tee(w),
  ];
  return [
    ...rotl(a, 5), ...f, ...v.i32x4Add, ...get(e), ...v.i32x4Add, ...get(KV[Math.floor(t / 20)] as number), ...v.i32x4Add,
    ...word, ...v.i32x4Add, ...set(e),
    ...rotl(b, 30), ...set(b),
  ];
}

function body(): number[] {
  const code: number[] = [];
  MSG.forEach((m, L) => code.push(...get(SCRATCH), ...load32(16 + 4 * L), ...set(m)));
  LENV.forEach((l, L) => code.push(...get(SCRATCH), ...load32(32 + 4 * L), ...v.i8x16Splat, ...set(l)));
  IDX.forEach((x, g) => code.push(...v.const(range(16 * g, 16)), ...set(x)));
  code.push(...i32c(0x80), ...v.i8x16Splat, ...set(C80));
  K.forEach((k, i) => code.push(...i32c(k), ...v.i32x4Splat, ...set(KV[i] as number)));
  INIT.forEach((h, i) => code.push(...i32c(h), ...v.i32x4Splat, ...set(S[i] as number)));
  for (let g = 0; g < 4; g++) code.push(...loadWords(g));
  let s = [...S];
  for (let t = 0; t < 80; t++) {
    code.push(...round(t, s));
    s = rotate(s);
  }
  // One block from the initial state, and only the first 8 digest bytes are kept: h0 and h1 are INIT + a, b.
  H.forEach((h, k) => code.push(...i32c(INIT[k] as number), ...v.i32x4Splat, ...get(s[k] as number), ...v.i32x4Add, ...set(h)));
  // (bswap(h1) << 32 | bswap(h0)) per lane = interleave h0 and h1 with their bytes swapped.
  const [h0, h1] = H as [number, number];
  code.push(...get(h0), ...get(h1), ...v.shuffle(interleaveBswap(0)), ...get(MASK), ...v.i64x2Splat, ...v.and, ...set(R[0] as number));
  code.push(...get(h0), ...get(h1), ...v.shuffle(interleaveBswap(2)), ...get(MASK), ...v.i64x2Splat, ...v.and, ...set(R[1] as number));
  // Unused lanes store into the scratch instead of branching around the store: TurboFan's scheduler would
  // otherwise copy the whole compression into each branch that uses it.
  for (let L = 0; L < 4; L++) {
    code.push(
      ...get(OUT), ...get(SCRATCH), ...load32(4 * L), ...i32c(3), op.i32Shl, op.i32Add,
      ...get(SCRATCH), ...i32c(64 + 8 * L), op.i32Add,
      ...i32c(L), ...get(LANES), op.i32LtU, op.select,
      ...get(R[L >> 1] as number), ...v.i64x2ExtractLane(L & 1), ...store64(),
    );
  }
  return code;
}

export const sha1x4Function: AsmFunction = {
  name: 'sha1x4',
  params: [I32, I32, I64, I32],
  locals: [[5, I32], [V128_COUNT, V128]],
  body: body(),
};
