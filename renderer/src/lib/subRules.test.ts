import { describe, expect, it } from 'vitest';
import type { SubRule } from '../../../shared/contract/index.js';
import { rule } from '../testing/fixtures.js';
import { defaultSweepChoice, leadSubRule, parseSubRuleValue, subRuleOptions, subRuleTest, subRuleValue, tunableRuleSnippet } from './subRules.js';

const top4: SubRule = { key: 'fineweb__gopher_repetition__top_4_gram_frac', failKey: 'fineweb__gopher_repetition__top_4_gram_frac_fail', label: 'top 4-gram fraction', op: '>', threshold: 0.2 };
const dupLines: SubRule = { key: 'fineweb__gopher_repetition__dup_line_frac', label: 'duplicate line fraction', op: '>', threshold: 0.3 };

describe('sub-rule options', () => {
  it('lists each flag rule’s sub-rules, tunable where a rule of the recipe compares the value', () => {
    const flagRule = rule(2, 10, { subRules: [top4, dupLines] });
    const onValue = rule(4, 3, { sweep: { key: top4.key, op: '>', threshold: 0.25, location: { line: 9, column: 80, endColumn: 84 }, thresholds: [], dropFraction: [] } });
    const noLocation = rule(5, 3, { sweep: { key: dupLines.key, op: '>', threshold: 0.3, thresholds: [], dropFraction: [] } });
    expect(subRuleOptions([flagRule, onValue, noLocation])).toEqual([
      { rule: 2, sub: top4, tunable: 4 },
      // A sweep without a location cannot be rewritten, so it does not make the sub-rule draggable.
      { rule: 2, sub: dupLines },
    ]);
    expect(subRuleOptions([rule(0, 1)])).toEqual([]);
  });

  it('round-trips the select value, keys with colons included', () => {
    expect(parseSubRuleValue(subRuleValue(3, 'a:b__c'))).toEqual({ rule: 3, key: 'a:b__c' });
    expect(parseSubRuleValue('3')).toBeNull();
  });

  it('says the tagger’s test, and offers a rule that makes it tunable', () => {
    expect(subRuleTest(top4)).toBe('top 4-gram fraction > 0.2');
    expect(subRuleTest({ key: 'k', label: 'k label' })).toBe('k label');
    expect(tunableRuleSnippet(top4)).toBe(`- "$.attributes[?(@.${top4.key} && @.${top4.key}[0] && @.${top4.key}[0][2] > 0.2)]"`);
    expect(tunableRuleSnippet({ key: 'k', label: 'k' })).toBeNull();
  });

  it('opens on the first rule with something to read: a threshold, or a flag’s first sub-rule with one', () => {
    const domain: SubRule = { key: 'fw__url_filter__domain', label: 'blocked domain' };
    const url = rule(0, 0, { subRules: [domain] });
    const rep = rule(2, 10, { subRules: [{ key: 'fw__x_flag', label: 'a flag' }, dupLines, top4] });
    const plain = rule(3, 1, { sweep: { key: 'wc', op: '<', threshold: 50, thresholds: [], dropFraction: [] } });
    expect(leadSubRule(rep)).toEqual(dupLines);
    expect(leadSubRule(url)).toEqual(domain);
    expect(defaultSweepChoice([url, rep, plain])).toEqual({ rule: 2, subKey: dupLines.key });
    expect(defaultSweepChoice([url, plain, rep])).toEqual({ rule: 3 });
    expect(defaultSweepChoice([url])).toEqual({ rule: 0, subKey: domain.key });
    expect(defaultSweepChoice([rule(0, 1)])).toBeNull();
  });
});
