import { describe, expect, it } from 'vitest';
import { formatThreshold, niceStep, numberAt, rewriteNumberAt } from './yamlNumber.js';

const RECIPE = ['streams:', '  - name: main', '    filter:', '      exclude:', '        - "$.attributes[?(@.gopher__word_count[0][2] < 50)]"', '        - "$.attributes[?(@.frac[0][2] >= 0.125)]"', ''].join('\n');

describe('numberAt', () => {
  it('reads the literal starting at a 1-based line and column', () => {
    const col50 = (RECIPE.split('\n')[4] as string).indexOf('50') + 1;
    expect(numberAt(RECIPE, { line: 5, column: col50 })).toMatchObject({ value: 50, literal: '50' });
    const colFrac = (RECIPE.split('\n')[5] as string).indexOf('0.125') + 1;
    const n = numberAt(RECIPE, { line: 6, column: colFrac });
    expect(n?.value).toBe(0.125);
    expect(RECIPE.slice(n?.start, n?.end)).toBe('0.125');
  });

  it('refuses a location that holds no number, or one past the text', () => {
    expect(numberAt(RECIPE, { line: 1, column: 1 })).toBeNull();
    expect(numberAt(RECIPE, { line: 99, column: 1 })).toBeNull();
    expect(numberAt('x: 50abc', { line: 1, column: 4 })).toBeNull();
  });

  it('reads negative and exponent literals and works with CRLF line ends', () => {
    expect(numberAt('a: 1\r\nb: -2.5e3\r\n', { line: 2, column: 4 })?.value).toBe(-2500);
  });
});

describe('rewriteNumberAt', () => {
  it('replaces only the literal, whatever its new length', () => {
    const col = (RECIPE.split('\n')[4] as string).indexOf('50') + 1;
    const once = rewriteNumberAt(RECIPE, { line: 5, column: col, endColumn: col + 2 }, '137.5') as string;
    expect(once.split('\n')[4]).toBe('        - "$.attributes[?(@.gopher__word_count[0][2] < 137.5)]"');
    // The stale endColumn from the preview is ignored: the extent is re-read, so a second drag step works.
    const twice = rewriteNumberAt(once, { line: 5, column: col, endColumn: col + 2 }, '50') as string;
    expect(twice).toBe(RECIPE);
  });

  it('returns null rather than corrupting text when the number moved', () => {
    expect(rewriteNumberAt(RECIPE, { line: 5, column: 3 }, '1')).toBeNull();
  });
});

describe('niceStep / formatThreshold', () => {
  it('snaps to 1-2-5 steps', () => {
    expect(niceStep(1000)).toBe(5);
    expect(niceStep(1)).toBeCloseTo(0.005);
    expect(niceStep(0)).toBe(1);
  });

  it('writes no more decimals than the step and no trailing zeros', () => {
    expect(formatThreshold(53.4, 1)).toBe('53');
    expect(formatThreshold(0.12345, 0.005)).toBe('0.125');
    expect(formatThreshold(0.3, 0.01)).toBe('0.3');
    expect(formatThreshold(-0.0001, 0.01)).toBe('0');
    expect(formatThreshold(1234, 50)).toBe('1250');
  });
});
