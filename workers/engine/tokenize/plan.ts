// Work distribution as Dolma's tokenizer executor: shuffled files in consecutive groups, one `part-<i>` prefix per group.
import { join } from 'node:path';
import { pyRound } from '../text/python.js';

/**
 * Dolma `executor.py`: `step = min(files_per_process or ∞, n / processes)`, groups are the slices
 * `[round(k·step), round((k+1)·step))` with Python's float stepping and round-half-even; empty
 * slices are dropped.
 */
export function groupFiles<T>(files: readonly T[], processes: number, filesPerProcess?: number): T[][] {
  const step = Math.min(filesPerProcess ?? Infinity, files.length / processes);
  const groups: T[][] = [];
  for (let current = 0; current < files.length; current += step) {
    const slice = files.slice(pyRound(current), pyRound(current + step));
    if (slice.length > 0) groups.push(slice);
  }
  return groups;
}

/** `part-{i:0{d}d}` with `d = ceil(log10(groups + 1))`, which is the digit count of `groups`. */
export function groupPrefix(destination: string, index: number, groups: number): string {
  return join(destination, `part-${String(index).padStart(String(groups).length, '0')}`);
}

/** `<prefix>-NNNNN.npy` / `.csv.gz` for the memmap number `mm` of a group. */
export function partPaths(prefix: string, mm: number): { npy: string; csv: string } {
  const base = `${prefix}-${String(mm).padStart(5, '0')}`;
  return { npy: `${base}.npy`, csv: `${base}.csv.gz` };
}

/** Names this stage writes in a destination folder (used to find earlier outputs). */
export const PART_FILE = /^part-\d+-\d{5,}\.(npy|csv\.gz)$/;
