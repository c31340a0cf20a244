// Rule labels: the comment, else key + comparator + threshold, else the (elided) expression.
import { describe, expect, it } from 'vitest';
import { ruleLabel } from './rule-label.js';

describe('ruleLabel', () => {
  const expression = `$.attributes[?(@.gopher_rules__gopher_v1__word_count && @.gopher_rules__gopher_v1__word_count[0] && @.gopher_rules__gopher_v1__word_count[0][2] < 50)]`;
  it('prefers the comment, then the comparison, then the expression (elided)', () => {
    expect(ruleLabel({ kind: 'exclude', expression, comment: '  too few words ', sweep: { key: 'k', op: '<', threshold: 50 } })).toBe('too few words');
    expect(ruleLabel({ kind: 'exclude', expression, comment: ' ', sweep: { key: 'gopher_rules__gopher_v1__word_count', op: '<', threshold: 50 } })).toBe('gopher_rules__gopher_v1__word_count < 50');
    const plain = ruleLabel({ kind: 'exclude', expression: '$.attributes[?(@.a == @.b && @.c)]'.repeat(4) });
    expect(plain).toHaveLength(72);
    expect(plain.endsWith('…')).toBe(true);
    expect(ruleLabel({ kind: 'span_replacement', expression: '$.attributes.pii__email' })).toBe('pii__email');
  });
});
