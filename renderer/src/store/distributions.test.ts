import { describe, expect, it } from 'vitest';
import type { Histogram } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { previewResult, rule } from '../testing/fixtures.js';
import { harness } from '../testing/harness.js';
import { currentThreshold, sweepRule } from './distributions.js';

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
