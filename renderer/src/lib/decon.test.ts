import { describe, expect, it } from 'vitest';
import { deconTargets, documentHits, plainWords, spanItems } from './decon.js';

const Q1 = 'Which planet in the solar system has the largest number of known moons orbiting it today';
const G7 = 'Janet has three apples and buys five more at the market, then gives two to her brother.';
const items = [
  { ref: 'mmlu:q1', text: Q1 },
  { ref: 'gsm8k:7', text: G7 },
  { ref: 'mmlu:q9', text: null },
];

describe('decon helpers', () => {
  it('pairs an overlap span with the hit item it quotes, whatever its case, accents and punctuation', () => {
    expect(plainWords('Café, CRÈME-brûlée!')).toEqual(['cafe', 'creme', 'brulee']);
    expect(spanItems('the SOLAR system has the largest number of known moons', items)).toEqual({ items: [items[0]], exact: true });
    expect(spanItems('buys five more at the market — then gives two to her', items)).toEqual({ items: [items[1]], exact: true });
    // Nothing shared: every hit is offered, marked as not paired.
    expect(spanItems('completely unrelated words that appear in no eval item at all here', items)).toEqual({ items, exact: false });
    // A short span pairs on its whole length.
    expect(spanItems('known moons', items).items.map((i) => i.ref)).toEqual(['mmlu:q1']);
  });

  it('finds decon names in the catalogue and a document hits per name', () => {
    const key = (set: string, k: string) => ({ key: k, set, kind: 'spans' as const, docs: 1, spans: 1, min: 0, max: 1, quantiles: [] });
    expect(deconTargets([key('evals', 'ev__decon__overlap'), key('evals', 'ev__decon__ngrams'), key('x', 'x__other')])).toEqual([{ name: 'ev', set: 'evals' }]);
    const spans = [{ set: 'evals', key: 'ev__decon__overlap', start: 0, end: 5, score: 1 }, { set: 'evals', key: 'ev__decon__overlap', start: 9, end: 12, score: 1 }];
    expect(documentHits({ spans, values: { ev__decon__hits: ['a:1', 'b:2'] } })).toEqual([{ name: 'ev', set: 'evals', refs: ['a:1', 'b:2'] }]);
    expect(documentHits({ spans, values: {} })).toEqual([{ name: 'ev', set: 'evals', refs: [] }]);
  });
});
