// The MinHash min-of-permutations loop in WebAssembly: native u64 wraparound, four permutations per pass over the hashes.
import { get, i32c, i64c, I32, I64, load64, op, set, store64, tee, VOID, type AsmFunction } from './asm.js';

/*
 * (func $sig (param $n i32) (param $h i32) (param $ab i32) (param $out i32) (param $k i32) (param $mask i64))
 * For permutation j < $k: out[j] = min over the n u64 hashes at $h of (((h * a_j + b_j) mod 2^64) mod P) & mask,
 * with a_j, b_j the u64 pair at $ab + 16j. $k must be a multiple of UNROLL (the signer pads with a = 1, b = 0).
 *
 * `v mod P` for P = 2^61 - 1: since 2^61 ≡ 1 (mod P), v ≡ (v & P) + (v >> 61) =: s, and s ≤ P + 7 < 2P, so one
 * conditional subtraction finishes it. `sig` does exactly that, for any mask. `sigfast` (mask all ones) instead
 * tracks the minimum of w = s - P (mod 2^64), computed as (v | ~P) + (v >> 61) + 1 (the OR adds 2^64 - P - 1):
 * while every s < P, w = s + 2^64 - P is order-preserving and the minimum of s is min(w) + P; an s ≥ P (probability
 * 8 / 2^61 per value) gives w ≤ 7, so min(w) < 2^63. `sigfast` ORs ~min(w) of every permutation into out[k]: bit 63
 * set means some s ≥ P and the caller reruns `sig`. That takes the conditional subtraction out of the loop.
 */

/** Permutations per pass: the hash is loaded once for UNROLL independent min chains. */
export const UNROLL = 4;
const PRIME = (1n << 61n) - 1n;

function sigFunction(name: string, fast: boolean): AsmFunction {
  const [N, H, AB, OUT, K, MASK, J, P, E] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  const A = Array.from({ length: UNROLL }, (_, q) => 9 + q);
  const B = A.map((x) => x + UNROLL);
  const MIN = B.map((x) => x + UNROLL);
  const [HV, S, ACC] = [9 + 3 * UNROLL, 10 + 3 * UNROLL, 11 + 3 * UNROLL];
  const perm = (q: number): number[] => {
    const [a, b, min] = [A[q], B[q], MIN[q]] as [number, number, number];
    const take = [...get(S), ...get(min), ...get(S), ...get(min), op.i64LtU, op.select, ...set(min)];
    const v = [...get(HV), ...get(a), op.i64Mul, ...get(b), op.i64Add, ...tee(S)];
    if (fast) return [...v, ...i64c(~PRIME), op.i64Or, ...get(S), ...i64c(61n), op.i64ShrU, op.i64Add, ...i64c(1n), op.i64Add, ...set(S), ...take];
    return [
      ...v, ...i64c(PRIME), op.i64And, ...get(S), ...i64c(61n), op.i64ShrU, op.i64Add, ...set(S),
      ...get(S), ...i64c(PRIME), op.i64Sub, ...get(S), ...get(S), ...i64c(PRIME), op.i64GeU, op.select,
      ...get(MASK), op.i64And, ...set(S), ...take,
    ];
  };
  const store = (m: number, q: number): number[] => [
    ...get(OUT), ...get(J), ...i32c(3), op.i32Shl, op.i32Add,
    ...(fast ? [...get(ACC), ...get(m), ...i64c(-1n), op.i64Xor, op.i64Or, ...set(ACC), ...get(m), ...i64c(PRIME), op.i64Add] : get(m)),
    ...store64(8 * q),
  ];
  const body = [
    ...i64c(0n), ...set(ACC),
    ...get(H), ...get(N), ...i32c(3), op.i32Shl, op.i32Add, ...set(E),
    ...i32c(0), ...set(J),
    op.block, VOID, op.loop, VOID,
    ...get(J), ...get(K), op.i32GeU, op.brIf, 1,
    ...A.flatMap((a, q) => [...get(AB), ...get(J), ...i32c(4), op.i32Shl, op.i32Add, ...load64(16 * q), ...set(a)]),
    ...B.flatMap((b, q) => [...get(AB), ...get(J), ...i32c(4), op.i32Shl, op.i32Add, ...load64(16 * q + 8), ...set(b)]),
    ...MIN.flatMap((m) => [...i64c(-1n), ...set(m)]),
    ...get(H), ...set(P),
    op.block, VOID, op.loop, VOID,
    ...get(P), ...get(E), op.i32GeU, op.brIf, 1,
    ...get(P), ...load64(), ...set(HV),
    ...A.flatMap((_, q) => perm(q)),
    ...get(P), ...i32c(8), op.i32Add, ...set(P), op.br, 0,
    op.end, op.end,
    ...MIN.flatMap(store),
    ...get(J), ...i32c(UNROLL), op.i32Add, ...set(J), op.br, 0,
    op.end, op.end,
    ...(fast ? [...get(OUT), ...get(K), ...i32c(3), op.i32Shl, op.i32Add, ...get(ACC), ...store64()] : []),
  ];
  return { name, params: [I32, I32, I32, I32, I32, I64], locals: [[3, I32], [3 * UNROLL + 3, I64]], body };
}

export const sigFunctions = (): AsmFunction[] => [sigFunction('sig', false), sigFunction('sigfast', true)];

/** The number of permutation slots the kernels compute for `k` permutations. */
export const paddedCount = (k: number): number => Math.ceil(k / UNROLL) * UNROLL;

/** `sigfast`'s out[k] word: true when its result must be recomputed with `sig`. */
export const needsExact = (flag: bigint): boolean => flag >> 63n !== 0n;
