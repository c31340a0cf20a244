import { describe, expect, it } from 'vitest';
import { pagesFor, pagesToEvict } from './paging.js';

describe('paging', () => {
  it('lists the pages a row range touches, clamped to the total', () => {
    expect(pagesFor(0, 49, 200, null)).toEqual([0]);
    expect(pagesFor(190, 420, 200, null)).toEqual([0, 1, 2]);
    expect(pagesFor(190, 420, 200, 300)).toEqual([0, 1]);
    expect(pagesFor(0, 10, 200, 0)).toEqual([]);
    expect(pagesFor(999_800, 1_000_050, 200, 1_000_000)).toEqual([4999]);
  });

  it('evicts the pages farthest from the view first, never one in view', () => {
    expect(pagesToEvict([0, 1, 50, 51, 120], [50, 51], 3)).toEqual([120, 0]);
    expect(pagesToEvict([0, 1], [0], 4)).toEqual([]);
  });
});
