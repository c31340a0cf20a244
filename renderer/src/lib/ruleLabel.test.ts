import { describe, expect, it } from 'vitest';
import type { ThresholdSweep } from '../../../shared/contract/index.js';
import { rule } from '../testing/fixtures.js';
import { ruleLabel, ruleName, ruleTitle } from './ruleLabel.js';

const sweep = (key: string, op: ThresholdSweep['op'], threshold: number): ThresholdSweep => ({ key, op, threshold, thresholds: [], dropFraction: [] });
const flag = (k: string) => `$.attributes[?(@.${k} && @.${k}[0] && @.${k}[0][2] == 0)]`;

describe('rule labels', () => {
  it('tells apart two rules whose JSONPath starts the same (the issue’s rules 5 and 6)', () => {
    const r5 = rule(5, 0, { expression: flag('gopher_rules__gopher_v1__symbol_to_word_ratio'), sweep: sweep('gopher_rules__gopher_v1__symbol_to_word_ratio', '>', 0.1) });
    const r6 = rule(6, 0, { expression: flag('gopher_rules__gopher_v1__word_count'), sweep: sweep('gopher_rules__gopher_v1__word_count', '<', 50) });
    expect(r5.expression.slice(0, 30)).toBe(r6.expression.slice(0, 30));
    expect(ruleLabel(r5)).toBe('gopher_rules__gopher_v1__symbol_to_word_ratio > 0.1');
    expect(ruleLabel(r6)).toBe('gopher_rules__gopher_v1__word_count < 50');
  });

  it('prefers the host’s label (the comment line), and keeps the full expression for the hover', () => {
    const r = rule(2, 0, { label: ' Gopher: too few words ', sweep: sweep('k', '<', 50) });
    expect(ruleLabel(r)).toBe('Gopher: too few words');
    expect(ruleTitle(r)).toBe(`rule 2 (exclude): ${r.expression}`);
    expect(ruleName(r)).toBe('rule 2 · Gopher: too few words');
  });

  it('names span replacements by their selector and elides only what would not fit', () => {
    expect(ruleLabel(rule(7, 0, { kind: 'span_replacement', expression: '$.attributes.pii__EMAIL_ADDRESS' }))).toBe('pii__EMAIL_ADDRESS');
    const long = rule(1, 0, { expression: `$.attributes[?(@.${'x'.repeat(200)} > 1)]` });
    expect(ruleLabel(long)).toHaveLength(72);
    expect(ruleLabel(long).endsWith('…')).toBe(true);
    expect(ruleTitle(long)).toContain('x'.repeat(200));
  });
});
