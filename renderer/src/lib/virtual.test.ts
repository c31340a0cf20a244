import { describe, expect, it } from 'vitest';
import { virtualWindow } from './virtual.js';

const base = { viewportHeight: 220, rowHeight: 22, overscan: 2 };

describe('virtualWindow', () => {
  it('renders the rows in view plus overscan, positioned at their real offset', () => {
    expect(virtualWindow({ ...base, scrollTop: 0, total: 1000 })).toEqual({ start: 0, end: 12, top: 0, contentHeight: 22_000 });
    const w = virtualWindow({ ...base, scrollTop: 440 + 11, total: 1000 });
    expect(w).toMatchObject({ start: 18, end: 32 });
    expect(w.top).toBe(18 * 22);
  });

  it('handles no rows and the last rows', () => {
    expect(virtualWindow({ ...base, scrollTop: 0, total: 0 })).toMatchObject({ end: -1, contentHeight: 0 });
    const w = virtualWindow({ ...base, scrollTop: 1e9, total: 100 });
    expect(w.end).toBe(99);
    expect(w.top + (w.end - w.start + 1) * 22).toBeCloseTo(100 * 22, 6);
  });

  it('caps the content height for a million rows yet reaches the first and last row', () => {
    const total = 1_000_000;
    const top = virtualWindow({ ...base, scrollTop: 0, total, maxContentPx: 1_000_000 });
    expect(top).toMatchObject({ start: 0, contentHeight: 1_000_000 });
    const bottom = virtualWindow({ ...base, scrollTop: 1_000_000 - 220, total, maxContentPx: 1_000_000 });
    expect(bottom.end).toBe(total - 1);
    // The last row's bottom edge lands on the viewport's bottom edge.
    expect(bottom.top + (bottom.end - bottom.start + 1) * 22).toBeCloseTo(1_000_000, 6);
    const mid = virtualWindow({ ...base, scrollTop: (1_000_000 - 220) / 2, total, maxContentPx: 1_000_000 });
    expect(Math.abs(mid.start + 2 - total / 2)).toBeLessThan(10);
  });
});
