import { describe, expect, it } from 'vitest';
import { ledgerResult } from '../testing/ledgerFixtures.js';
import { parseBudget, refusalText, roundShares, setTarget, stageSeries, targetsFromLedger, targetTotal } from './ledger.js';

describe('planner targets', () => {
  it('rounds shares to permille that add up to exactly 1', () => {
    expect(roundShares({ a: 1, b: 1, c: 1 })).toEqual({ a: 0.334, b: 0.333, c: 0.333 });
    expect(roundShares({ a: 0, b: 0 })).toEqual({ a: 0.5, b: 0.5 });
    const r = roundShares({ web: 0.61234, books: 0.2, code: 0.18766 });
    expect(Math.round(1000 * targetTotal(r))).toBe(1000);
    expect(r.web).toBe(0.612);
    expect(targetsFromLedger(ledgerResult())).toEqual({ books: 0.4, web: 0.6 });
  });

  it('moving one target rescales the others in proportion, so the total stays 1', () => {
    const t = setTarget({ web: 0.6, books: 0.2, code: 0.2 }, 'web', 0.4);
    expect(t.web).toBe(0.4);
    expect(t.books).toBeCloseTo(0.3, 12);
    expect(t.code).toBeCloseTo(0.3, 12);
    expect(Object.keys(t)).toEqual(['web', 'books', 'code']);
    const z = setTarget({ a: 1, b: 0, c: 0 }, 'a', 0.5);
    expect(z).toEqual({ a: 0.5, b: 0.25, c: 0.25 });
    expect(setTarget({ a: 0.5, b: 0.5 }, 'b', 7)).toEqual({ a: 0, b: 1 });
    for (const v of [0, 0.123, 0.5, 0.999, 1]) expect(targetTotal(setTarget({ x: 0.2, y: 0.3, z: 0.5 }, 'y', v))).toBeCloseTo(1, 12);
  });

  it('reads budgets as people type them', () => {
    expect(parseBudget('2e9')).toBe(2e9);
    expect(parseBudget('2,000,000')).toBe(2e6);
    expect(parseBudget('1.5M')).toBe(1.5e6);
    expect(parseBudget('3G')).toBe(3e9);
    expect(parseBudget('0')).toBeNull();
    expect(parseBudget('lots')).toBeNull();
  });

  it('names the binding source of a refusal once', () => {
    expect(refusalText({ feasible: false, source: 'books', reason: 'books: needs 9e8 tokens' })).toBe('books: needs 9e8 tokens');
    expect(refusalText({ feasible: false, source: '', reason: 'no target' })).toBe('(no source): no target');
  });
});

describe('ledger chart series', () => {
  it('stacks each source per stage, by the chosen measure', () => {
    const s = stageSeries(ledgerResult(), 'tokens');
    expect(s.map((x) => x.source)).toEqual(['books', 'web']);
    expect(s[0]!.values).toEqual([10000, 8000, 8000, 16000]);
    expect(stageSeries(ledgerResult(), 'docs')[1]!.values).toEqual([1000, 600, 240, 240]);
  });
});
