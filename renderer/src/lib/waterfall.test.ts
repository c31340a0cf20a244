import { describe, expect, it } from 'vitest';
import { previewResult, rule } from '../testing/fixtures.js';
import { waterfallBars } from './waterfall.js';

describe('waterfallBars', () => {
  it('steps down by each sequential drop and closes on the kept total', () => {
    const res = previewResult([rule(0, 40), rule(1, 0, { kind: 'span_replacement' }), rule(2, 15)], 600);
    const bars = waterfallBars(res, 'docs');
    expect(bars.map((b) => [b.kind, b.base, b.value])).toEqual([
      ['start', 0, 600],
      ['drop', 560, 40],
      ['drop', 545, 15],
      ['end', 0, 545],
    ]);
    expect(bars.find((b) => b.rule === 1)).toBeUndefined();
  });

  it('uses tokens when asked', () => {
    const bars = waterfallBars(previewResult([rule(0, 40)], 600), 'tokens');
    expect(bars.map((b) => b.value)).toEqual([6000, 400, 5600]);
  });

  it('names each drop by the rule’s label, with the full expression for the hover', () => {
    const r = rule(3, 10, { label: 'too few words' });
    const bars = waterfallBars(previewResult([r, rule(4, 2)], 100), 'docs');
    expect(bars.map((b) => b.label)).toEqual(['in streams', '#3 too few words', `#4 ${rule(4, 2).expression}`, 'kept']);
    expect(bars[1]?.title).toBe(`rule 3 (exclude): ${r.expression}`);
  });
});
