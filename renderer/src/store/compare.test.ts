import { describe, expect, it } from 'vitest';
import type { DiffGroup, RecipeCompareResult } from '../../../shared/contract/index.js';
import { decodeGroup, decodeTarget, encodeGroup, encodeTarget, groupKey } from '../lib/compare.js';
import { decodeUrlState, encodeUrlState, type UrlState } from '../lib/urlState.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { urlStateOf } from './create.js';

const group: DiffGroup = {
  stream: 'main',
  change: 'kept→dropped',
  from: { fate: 'kept' },
  to: { fate: 'dropped', rule: 0, label: 'k0 < 60' },
  docs: 3,
  tokens: 30,
  bySource: { wiki: { docs: 3, tokens: 30 } },
  sampleIds: ['doc-1', 'doc-2', 'doc-3'],
};

function diff(baseline: string): RecipeCompareResult {
  return {
    docs: 600,
    changed: { docs: 3, tokens: 30 },
    byChange: { 'kept→dropped': { docs: 3, tokens: 30 } },
    bySource: { wiki: { 'kept→dropped': 3 } },
    groups: [group],
    kept: { old: { docs: 560, tokens: 5600 }, new: { docs: 557, tokens: 5570 } },
    ruleMap: [{ old: 0, new: 0 }],
    elapsedMs: 2,
    baseline: { kind: 'text', label: 'saved', text: baseline },
  };
}

describe('compare slice', () => {
  it('diffs the previewed text against the saved version after each preview and after a save', async () => {
    const { store, fake } = harness({ handlers: { 'preview.diff': (p) => diff('text' in p.against ? p.against.text : '?') } });
    await store.getState().openRecipe('configs/demo.yaml');
    const saved = store.getState().recipe.savedText;
    store.getState().setCompareTarget({ kind: 'saved' });
    await settle();
    expect(fake.callsOf('preview.diff').at(-1)).toMatchObject({ recipeText: saved, against: { text: saved, label: 'configs/demo.yaml as saved' } });
    store.getState().setRecipeText(`${saved}# edit\n`);
    await settle(30);
    expect(fake.callsOf('preview.diff').at(-1)?.recipeText).toBe(`${saved}# edit\n`);
    expect(store.getState().compare.result?.changed.docs).toBe(3);
    expect(store.getState().compare.text).toBe(`${saved}# edit\n`);
    await store.getState().saveRecipe();
    await settle();
    expect(fake.callsOf('preview.diff').at(-1)?.against).toMatchObject({ text: `${saved}# edit\n` });
  });

  it('asks document pages under comparison, and a group click lists that group only', async () => {
    const { store, fake } = harness({ handlers: { 'preview.diff': () => diff('old text') } });
    await store.getState().openRecipe('configs/demo.yaml');
    await settle();
    store.getState().setDocFilter({ fate: 'kept', source: 'wiki' });
    store.getState().setCompareTarget({ kind: 'recipe', path: 'configs/other.yaml' });
    await settle();
    expect(fake.callsOf('preview.diff').at(-1)?.against).toEqual({ recipe: 'configs/other.yaml' });
    store.getState().ensureRows(0, 10);
    await settle();
    expect(fake.callsOf('documents.page').at(-1)?.compare).toEqual({ oldText: 'old text' });
    store.getState().setDocFilter({ change: 'any' });
    await settle();
    expect(fake.callsOf('documents.page').at(-1)?.compare).toEqual({ oldText: 'old text', change: 'any' });
    store.getState().showChangeGroup(group, 'wiki');
    await settle();
    const q = fake.callsOf('documents.page').at(-1);
    expect(q?.compare).toEqual({ oldText: 'old text', group: { stream: 'main', change: 'kept→dropped', toRule: 0 } });
    expect(q?.fate).toBeUndefined();
    expect(q?.source).toBe('wiki');
    // Stop comparing: the change filters go, pages are plain again.
    store.getState().setCompareTarget(null);
    await settle();
    expect(store.getState().documents.filter.group).toBeUndefined();
    expect(fake.callsOf('documents.page').at(-1)?.compare).toBeUndefined();
  });

  it('keeps the last comparison on a failure, shows the error, and ignores a cancelled diff', async () => {
    let fail: 'no' | 'error' | 'cancel' = 'no';
    const { store } = harness({
      handlers: {
        'preview.diff': () => {
          if (fail === 'error') throw Object.assign(new Error('against.run: no run manifest'), { code: 'NOT_FOUND' });
          if (fail === 'cancel') throw Object.assign(new Error('superseded'), { code: 'CANCELLED' });
          return diff('b');
        },
      },
    });
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setCompareTarget({ kind: 'run', path: 'output/x' });
    await settle();
    fail = 'cancel';
    await store.getState().runCompare();
    expect(store.getState().compare.error).toBeNull();
    fail = 'error';
    await store.getState().runCompare();
    expect(store.getState().compare.error?.message).toMatch(/no run manifest/);
    expect(store.getState().compare.result?.changed.docs).toBe(3);
  });
});

describe('compare in the URL', () => {
  it('round-trips the target, the change filter and a group', () => {
    for (const t of [{ kind: 'saved' }, { kind: 'recipe', path: 'a/b:c.yaml' }, { kind: 'run', path: 'output/one' }] as const) expect(decodeTarget(encodeTarget(t))).toEqual(t);
    expect(decodeTarget('nope:x')).toBeNull();
    expect(decodeTarget('run:')).toBeNull();
    const key = groupKey({ ...group, stream: 'a|b', change: 'rule changed', from: { fate: 'dropped', rule: 2 }, to: { fate: 'dropped', rule: 4 } });
    expect(decodeGroup(encodeGroup(key))).toEqual(key);
    expect(decodeGroup('x||kept→dropped|s')).toBeUndefined();
    expect(decodeGroup('|1|sideways|s')).toBeUndefined();
    const s: UrlState = { recipe: 'r.yaml', compare: { kind: 'run', path: 'output/one' }, filter: { change: 'dropped→kept', source: 'web', ranges: [] } };
    expect(decodeUrlState(encodeUrlState(s))).toEqual(s);
    const g: UrlState = { compare: { kind: 'saved' }, filter: { group: groupKey(group), ranges: [] } };
    expect(decodeUrlState(`#${encodeUrlState(g)}`)).toEqual(g);
    expect(decodeUrlState('chg=sideways').filter.change).toBeUndefined();
  });

  it('is what the store shares', async () => {
    const { store } = harness({ handlers: { 'preview.diff': () => diff('x') } });
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setCompareTarget({ kind: 'saved' });
    store.getState().setDocFilter({ change: 'kept→dropped' });
    const u = urlStateOf(store.getState());
    expect(u.compare).toEqual({ kind: 'saved' });
    expect(u.filter.change).toBe('kept→dropped');
  });
});
