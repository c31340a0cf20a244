// Shared pieces of the line and paragraph stats: Gopher's find_duplicates and DataTrove's _safe_divide.
import { cpLength } from '../../../text/python.js';
import { pyFloat, type PyNumber } from '../../../stats/types.js';

/** `find_duplicates(x)`: how many elements repeat an earlier one, and their total length in code points. */
export function findDuplicates(items: readonly string[]): { elements: number; chars: number } {
  const seen = new Set<string>();
  let elements = 0;
  let chars = 0;
  for (const x of items) {
    if (seen.has(x)) {
      elements++;
      chars += cpLength(x);
    } else seen.add(x);
  }
  return { elements, chars };
}

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
