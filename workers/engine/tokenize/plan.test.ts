// Dolma's work distribution: group slices with float steps and round-half-even, part-file names and digits.
import { describe, expect, it } from 'vitest';
import { groupFiles, groupPrefix, partPaths } from './plan.js';
import { seededRandom, shuffleInPlace } from './shuffle.js';

const sizes = (n: number, processes: number, perProcess?: number): number[] =>
  groupFiles(Array.from({ length: n }, (_, i) => i), processes, perProcess).map((g) => g.length);

describe('groupFiles', () => {
  it('slices [round(k·step), round((k+1)·step)) with step = n / processes, rounding half to even as Python', () => {
    expect(sizes(3, 2)).toEqual([2, 1]); // step 1.5: round(1.5) = 2, round(3) = 3
    expect(sizes(5, 2)).toEqual([2, 3]); // step 2.5: round(2.5) = 2 (half to even), not 3
    expect(sizes(10, 3)).toEqual([3, 4, 3]); // 3.33…: 0–3, 3–7 (6.67 → 7), 7–10
    expect(sizes(2, 4)).toEqual([1, 1]); // more processes than files: one file each, no empty group
    expect(sizes(7, 1)).toEqual([7]);
  });

  it('caps each group at files_per_process', () => {
    expect(sizes(5, 1, 2)).toEqual([2, 2, 1]);
    expect(sizes(9, 2, 3)).toEqual([3, 3, 3]);
    expect(groupFiles(['a', 'b', 'c'], 1, 2)).toEqual([['a', 'b'], ['c']]);
  });
});

describe('names', () => {
  it('pads the group number to ceil(log10(groups + 1)) digits and the memmap number to 5', () => {
    expect(groupPrefix('/d', 0, 1)).toBe('/d/part-0');
    expect(groupPrefix('/d', 3, 9)).toBe('/d/part-3');
    expect(groupPrefix('/d', 3, 10)).toBe('/d/part-03');
    expect(groupPrefix('/d', 7, 100)).toBe('/d/part-007');
    expect(partPaths('/d/part-0', 12)).toEqual({ npy: '/d/part-0-00012.npy', csv: '/d/part-0-00012.csv.gz' });
  });
});

describe('seeded shuffles', () => {
  it('are reproducible per (seed, stream) and differ across seeds and streams', () => {
    const order = (seed: number, stream: string): number[] => shuffleInPlace(Array.from({ length: 20 }, (_, i) => i), seededRandom(seed, stream));
    expect(order(3920, 'files')).toEqual(order(3920, 'files'));
    expect(order(3920, 'files')).not.toEqual(order(3921, 'files'));
    expect(order(3920, 'files')).not.toEqual(order(3920, 'group:0'));
    expect([...order(1, 'x')].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
