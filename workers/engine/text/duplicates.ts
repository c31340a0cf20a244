// Gopher's `find_duplicates`, shared by DataTrove's Gopher repetition filter and its line/paragraph stats.
import { cpLength } from './python.js';

/** How many elements repeat an earlier one, and their total length in code points. */
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
