// The hidden vector of fastText's `computeHidden`: input rows added in line order, each sum rounded to float32.

/**
 * hidden += every row of the lists at `offsets[0, n)` (each `lists[at]` rows long, the row ids after it), in
 * order; returns the number of rows. A Float32Array store of the double sum of two floats is fastText's float
 * `+=` exactly (a double holds that sum with room to round once), so the order of the additions is all that
 * matters, and it is the one fastText uses.
 */
export function sumRows(input: Float32Array, dim: number, hidden: Float32Array, lists: Int32Array, offsets: Int32Array, n: number): number {
  return dim === 16 ? sum16(input, hidden, lists, offsets, n) : sumAny(input, dim, hidden, lists, offsets, n);
}

/** Any dimension: through the typed array, whose stores round each sum. */
export function sumAny(input: Float32Array, dim: number, hidden: Float32Array, lists: Int32Array, offsets: Int32Array, n: number): number {
  let count = 0;
  for (let t = 0; t < n; t++) {
    const at = offsets[t] as number;
    const len = lists[at] as number;
    count += len;
    for (let r = at + 1; r <= at + len; r++) {
      const row = (lists[r] as number) * dim;
      for (let d = 0; d < dim; d++) hidden[d] = (hidden[d] as number) + (input[row + d] as number);
    }
  }
  return count;
}

/**
 * Dimension 16 (lid.176's), unrolled. The sums stay in the Float32Array: V8 has no float32 arithmetic, so float
 * locals would need a `Math.fround` per addition, which measured twice as slow as the array's rounding stores.
 */
function sum16(input: Float32Array, h: Float32Array, lists: Int32Array, offsets: Int32Array, n: number): number {
  let count = 0;
  for (let t = 0; t < n; t++) {
    const at = offsets[t] as number;
    const len = lists[at] as number;
    count += len;
    for (let r = at + 1; r <= at + len; r++) {
      const a = (lists[r] as number) << 4;
      h[0] = (h[0] as number) + (input[a] as number);
      h[1] = (h[1] as number) + (input[a + 1] as number);
      h[2] = (h[2] as number) + (input[a + 2] as number);
      h[3] = (h[3] as number) + (input[a + 3] as number);
      h[4] = (h[4] as number) + (input[a + 4] as number);
      h[5] = (h[5] as number) + (input[a + 5] as number);
      h[6] = (h[6] as number) + (input[a + 6] as number);
      h[7] = (h[7] as number) + (input[a + 7] as number);
      h[8] = (h[8] as number) + (input[a + 8] as number);
      h[9] = (h[9] as number) + (input[a + 9] as number);
      h[10] = (h[10] as number) + (input[a + 10] as number);
      h[11] = (h[11] as number) + (input[a + 11] as number);
      h[12] = (h[12] as number) + (input[a + 12] as number);
      h[13] = (h[13] as number) + (input[a + 13] as number);
      h[14] = (h[14] as number) + (input[a + 14] as number);
      h[15] = (h[15] as number) + (input[a + 15] as number);
    }
  }
  return count;
}
