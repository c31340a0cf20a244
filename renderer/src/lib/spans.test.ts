import { describe, expect, it } from 'vitest';
import type { DocumentSpan } from '../../../shared/contract/index.js';
import { rng } from '../testing/rng.js';
import { segmentText } from './spans.js';

const span = (start: number, end: number, key = 'k', set = 's'): DocumentSpan => ({ set, key, start, end, score: 1 });

describe('segmentText', () => {
  it('covers the text with segments that carry every overlapping span', () => {
    const a = span(2, 6, 'a');
    const b = span(4, 10, 'b');
    const segs = segmentText(12, [a, b]);
    expect(segs.map((s) => [s.start, s.end, s.spans.map((x) => x.key).join('')])).toEqual([
      [0, 2, ''],
      [2, 4, 'a'],
      [4, 6, 'ab'],
      [6, 10, 'b'],
      [10, 12, ''],
    ]);
  });

  it('clamps spans to the text and ignores empty ones', () => {
    expect(segmentText(5, [span(3, 99), span(2, 2), span(-4, 1)]).map((s) => [s.start, s.end, s.spans.length])).toEqual([
      [0, 1, 1],
      [1, 3, 0],
      [3, 5, 1],
    ]);
  });

  it('agrees with a per-character check on random spans', () => {
    const r = rng(7);
    for (let trial = 0; trial < 50; trial++) {
      const len = 1 + Math.floor(r() * 60);
      const spans = Array.from({ length: Math.floor(r() * 8) }, (_, i) => {
        const s = Math.floor(r() * len);
        return span(s, s + Math.floor(r() * 20), `k${i}`);
      });
      const segs = segmentText(len, spans);
      expect(segs[0]?.start).toBe(0);
      expect(segs[segs.length - 1]?.end).toBe(len);
      for (const seg of segs) {
        for (let c = seg.start; c < seg.end; c++) {
          const expected = spans.filter((s) => s.start <= c && c < Math.min(s.end, len)).map((s) => s.key);
          expect(seg.spans.map((s) => s.key)).toEqual(expected);
        }
      }
    }
  });
});
