// SHA-1 constants and helpers shared by the scalar and the 4-lane WebAssembly compressors.
import { get, i32c, op } from './asm.js';

export const INIT = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
export const K = [0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6];

/** Byte-swaps the i32 in local `l` (SHA-1 is big-endian, wasm loads little-endian); leaves it on the stack. */
export const bswap = (l: number): number[] => [
  ...get(l), ...i32c(0xff00ff00), op.i32And, ...i32c(8), op.i32Rotl,
  ...get(l), ...i32c(0x00ff00ff), op.i32And, ...i32c(8), op.i32Rotr, op.i32Or,
];

/**
 * After a round, the local that held e holds the new a and the others shift down one role, so the rounds are
 * unrolled with renamed locals instead of four moves each.
 */
export const rotate = (s: number[]): number[] => [s[4], s[0], s[1], s[2], s[3]] as number[];
