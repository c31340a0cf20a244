import { describe, expect, it } from 'vitest';
import { count, previewResult } from '../testing/fixtures.js';
import { sourceTotals } from './totals.js';

describe('sourceTotals', () => {
  it('splits kept and dropped per source, largest source first, zeros where a split has no entry', () => {
    const res = previewResult([], 100);
    res.total = {
      ...count(100, 1000, { web: { docs: 70, tokens: 700 }, wiki: { docs: 30, tokens: 300 } }),
      kept: count(80, 800, { web: { docs: 50, tokens: 500 }, wiki: { docs: 30, tokens: 300 } }),
      dropped: count(20, 200, { web: { docs: 20, tokens: 200 } }),
    };
    expect(sourceTotals(res)).toEqual([
      { source: 'web', all: { docs: 70, tokens: 700 }, kept: { docs: 50, tokens: 500 }, dropped: { docs: 20, tokens: 200 } },
      { source: 'wiki', all: { docs: 30, tokens: 300 }, kept: { docs: 30, tokens: 300 }, dropped: { docs: 0, tokens: 0 } },
    ]);
  });

  it('is empty when the preview has no per-source split', () => {
    expect(sourceTotals(previewResult([], 10))).toEqual([]);
  });
});
