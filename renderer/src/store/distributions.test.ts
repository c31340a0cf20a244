import { describe, expect, it } from 'vitest';
import type { Histogram } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { previewResult, rule } from '../testing/fixtures.js';
import { harness } from '../testing/harness.js';
import { currentThreshold, shownSubRule, sweepRule } from './distributions.js';

const TEXT = 'streams:\n  - filter:\n      exclude:\n        - "$.attributes[?(@.wc[0][2] < 50)]"\n';
const COL = (TEXT.split('\n')[3] as string).indexOf('50') + 1;

const histogram = (key: string): Histogram => ({ key, present: 10, total: 12, min: 0, max: 100, edges: [0, 50, 100], counts: [4, 6] });

function setup() {
  const h = harness({
    handlers: {
      'preview.run': () =>
        previewResult([
          rule(0, 4, {
            sweep: { key: 'wc', op: '<', threshold: 50, location: { line: 4, column: COL, endColumn: COL + 2 }, thresholds: [0, 50, 100], dropFraction: [0, 0.4, 1] },
          }),
        ]),
      'attributes.histogram': ({ key }) => histogram(key),
    },
  });
  return h;
}

describe('distributions slice', () => {
  it('selecting a rule shows its sweep and loads the histogram of the key it compares', async () => {
    const { store, fake } = setup();
    store.getState().setRecipeText(TEXT);
    await settle();
    store.getState().selectSweepRule(0);
    await settle();
    expect(sweepRule(store.getState())?.index).toBe(0);
    expect(store.getState().distributions.histogram?.key).toBe('wc');
    expect(fake.callsOf('attributes.histogram')).toEqual([{ key: 'wc', bins: 40 }]);
  });

  it('dragging rewrites the threshold in the YAML, and editing the YAML moves the threshold', async () => {
    const { store } = setup();
    store.getState().setRecipeText(TEXT);
    await settle();
    store.getState().selectSweepRule(0);
    expect(currentThreshold(store.getState())).toBe(50);
    expect(store.getState().setThreshold('62.5')).toBe(true);
    expect(store.getState().recipe.text).toBe(TEXT.replace('< 50)', '< 62.5)'));
    // A second drag step before the preview answers still finds the literal (now longer than the preview said).
    expect(store.getState().setThreshold('7')).toBe(true);
    expect(store.getState().recipe.text).toBe(TEXT.replace('< 50)', '< 7)'));
    store.getState().setRecipeText(TEXT.replace('< 50)', '< 81)'));
    expect(currentThreshold(store.getState())).toBe(81);
  });

  it('refuses to write when the threshold is no longer at its location', async () => {
    const { store } = setup();
    store.getState().setRecipeText(TEXT);
    await settle();
    store.getState().selectSweepRule(0);
    store.getState().setRecipeText(`# a comment\n${TEXT}`);
    expect(store.getState().setThreshold('1')).toBe(false);
    expect(store.getState().distributions.error).toContain('threshold');
    expect(store.getState().recipe.text.startsWith('# a comment')).toBe(true);
  });

  it('caches histograms until the index changes', async () => {
    const { store, fake } = setup();
    store.getState().selectAttribute('a');
    await settle();
    store.getState().selectAttribute('b');
    await settle();
    store.getState().selectAttribute('a');
    await settle();
    expect(fake.callsOf('attributes.histogram').map((p) => p.key)).toEqual(['a', 'b']);
    store.getState().invalidateHistograms();
    await settle();
    expect(fake.callsOf('attributes.histogram').map((p) => p.key)).toEqual(['a', 'b', 'a']);
  });

  it('choosing another attribute takes the rule line off the chart', async () => {
    const { store } = setup();
    store.getState().setRecipeText(TEXT);
    await settle();
    store.getState().selectSweepRule(0);
    store.getState().selectAttribute('other');
    expect(store.getState().distributions.rule).toBeNull();
  });
});

describe('distributions slice: first preview', () => {
  it('starts on the first rule with a draggable threshold when nothing is chosen', async () => {
    const { store } = setup();
    store.getState().setRecipeText(TEXT);
    await settle();
    expect(store.getState().distributions).toMatchObject({ rule: 0, key: 'wc' });
  });
});

describe('distributions slice: sub-rules of a verdict flag', () => {
  const top4 = { key: 'fw__top_4_gram_frac', label: 'top 4-gram fraction', op: '>' as const, threshold: 0.2 };
  const dup = { key: 'fw__dup_line_frac', label: 'duplicate line fraction', op: '>' as const, threshold: 0.3 };
  const flag = rule(0, 10, { sweep: { key: 'fw__kept', op: '==', threshold: 0, location: { line: 4, column: 10, endColumn: 11 }, thresholds: [0, 1], dropFraction: [0.2, 0] }, subRules: [top4, dup] });
  const onTop4 = rule(1, 3, { sweep: { key: top4.key, op: '>', threshold: 0.25, location: { line: 4, column: COL, endColumn: COL + 2 }, thresholds: [0, 1], dropFraction: [1, 0] } });

  function setupFlag(rules = [flag, onTop4]) {
    return harness({ handlers: { 'preview.run': () => previewResult(rules), 'attributes.histogram': ({ key }) => histogram(key) } });
  }

  it('starts on the first sub-rule’s value instead of the 0/1 flag', async () => {
    const { store, fake } = setupFlag();
    store.getState().setRecipeText(TEXT);
    await settle();
    expect(store.getState().distributions).toMatchObject({ subRule: { rule: 0, key: top4.key }, key: top4.key, rule: 1 });
    expect(fake.callsOf('attributes.histogram').map((c) => c.key)).toEqual([top4.key]);
  });

  it('a sub-rule with a recipe rule on its value is draggable through that rule; without one the tagger’s threshold is fixed', async () => {
    const { store } = setupFlag();
    store.getState().setRecipeText(TEXT);
    await settle();
    expect(sweepRule(store.getState())?.index).toBe(1);
    expect(shownSubRule(store.getState())).toEqual(top4);
    store.getState().selectSubRule(0, dup.key);
    await settle();
    expect(store.getState().distributions).toMatchObject({ subRule: { rule: 0, key: dup.key }, key: dup.key, rule: null });
    expect(sweepRule(store.getState())).toBeUndefined();
    expect(currentThreshold(store.getState())).toBeNull();
    expect(shownSubRule(store.getState())?.threshold).toBe(0.3);
    // Choosing a plain rule leaves the sub-rule.
    store.getState().selectSweepRule(1);
    expect(store.getState().distributions.subRule).toBeNull();
  });

  it('becomes draggable once the recipe gains a rule on the value', async () => {
    let rules = [flag];
    const { store, fake } = harness({ handlers: { 'preview.run': () => previewResult(rules), 'attributes.histogram': ({ key }) => histogram(key) } });
    store.getState().setRecipeText(TEXT);
    await settle();
    expect(store.getState().distributions).toMatchObject({ subRule: { rule: 0, key: top4.key }, rule: null });
    rules = [flag, onTop4];
    store.getState().setRecipeText(`${TEXT}\n`);
    await settle();
    expect(store.getState().distributions).toMatchObject({ subRule: { rule: 0, key: top4.key }, rule: 1 });
    // The histogram was cached: one request for the key.
    expect(fake.callsOf('attributes.histogram')).toHaveLength(1);
  });
});
