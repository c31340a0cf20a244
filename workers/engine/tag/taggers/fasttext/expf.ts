// musl's `expf` (the libc the fastText WebAssembly build links), so JavaScript predictions match it bit for bit.

/** 2^(i/32), correctly rounded (musl's `__exp2f_data.tab` holds these minus i << 47, for the exponent trick). */
const TAB = [
  1.0, 1.0218971486541166, 1.0442737824274138, 1.0671404006768237, 1.0905077326652577, 1.1143867425958924, 1.1387886347566916,
  1.1637248587775775, 1.189207115002721, 1.215247359980469, 1.241857812073484, 1.2690509571917332, 1.2968395546510096,
  1.3252366431597413, 1.3542555469368927, 1.383909881963832, 1.4142135623730951, 1.4451808069770467, 1.4768261459394993,
  1.5091644275934228, 1.5422108254079407, 1.5759808451078865, 1.6104903319492543, 1.645755478153965, 1.681792830507429,
  1.718619298122478, 1.7562521603732995, 1.7947090750031072, 1.8340080864093424, 1.8741676341103, 1.9152065613971474,
  1.9571441241754002,
];
const N = 32;
/** `invln2_scaled` = 0x1.71547652b82fep+0 · N, and `poly_scaled` (hex mantissas are exact below 2^53). */
const INV_LN2_N = (0x171547652b82fe * N) / 2 ** 52;
const C0 = 0x1c6af84b912394 / 2 ** 57 / N ** 3;
const C1 = 0x1ebfce50fac4f3 / 2 ** 55 / N ** 2;
const C2 = 0x162e42ff0c52d6 / 2 ** 53 / N;
const SHIFT = 1.5 * 2 ** 52;

/**
 * `expf(x)` for a float32 `x`, as musl computes it: round(x/ln2 · 32) = k splits into a table entry and a power
 * of two, the remainder goes through a degree-3 polynomial in double, and the result is rounded to float once.
 * musl's is not always correctly rounded (0.502 ulp), hence the port rather than `Math.fround(Math.exp(x))`.
 */
export function expf(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x > 0x162e42e / 2 ** 18) return Infinity; // 0x1.62e42ep6f: overflows
  if (x < -0x19fe368 / 2 ** 18) return 0; // -0x1.9fe368p6f: underflows to 0
  const z = INV_LN2_N * x;
  const k = z + SHIFT - SHIFT; // round-to-nearest-even of z, as the shift trick gives
  const r = z - k;
  const s = (TAB[((k % N) + N) % N] as number) * 2 ** Math.floor(k / N);
  const p = C0 * r + C1;
  const r2 = r * r;
  let y = C2 * r + 1;
  y = p * r2 + y;
  return Math.fround(y * s);
}
