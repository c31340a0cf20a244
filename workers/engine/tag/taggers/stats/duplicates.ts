// Shared pieces of the line and paragraph stats: Gopher's find_duplicates and DataTrove's _safe_divide.
import { pyFloat, type PyNumber } from '../../../stats/types.js';
import { findDuplicates } from '../../../text/duplicates.js';

export { findDuplicates };

/** `_safe_divide`: a float, 0.0 when the denominator is 0 (where upstream guards the division). */
export const safeDivide = (num: number, den: number): PyNumber => pyFloat(den ? num / den : 0);

/** The share of `items` whose length passes `test`, per threshold: `{prefix}{k}` → ratio. */
export function thresholdRatios(
  out: Map<string, PyNumber>,
  lengths: readonly number[],
  prefix: string,
  thresholds: readonly number[],
  test: (len: number, k: number) => boolean,
): void {
  for (const k of thresholds) {
    let hits = 0;
    for (const len of lengths) if (test(len, k)) hits++;
    out.set(`${prefix}${k}`, safeDivide(hits, lengths.length));
  }
}
