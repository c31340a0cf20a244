import { describe, expect, it } from 'vitest';
import type { Params } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { feasiblePlan, infeasiblePlan, ledgerResult } from '../testing/ledgerFixtures.js';

const PLANNED = '# planned\nstreams: []\n';

describe('ledger slice', () => {
  it('follows the preview only while its tab shows, and seeds the planner from the first ledger', async () => {
    const { store, fake } = harness({ handlers: { 'ledger.predict': (p) => ledgerResult({ epochs: p.epochs ?? 1 }) } });
    await store.getState().openRecipe('configs/demo.yaml');
    await settle();
    expect(fake.callsOf('ledger.predict')).toEqual([]);
    store.getState().setBottomTab('ledger');
    await settle();
    const text = store.getState().recipe.text;
    expect(fake.callsOf('ledger.predict')).toEqual([{ recipeText: text, epochs: 1 }]);
    expect(store.getState().ledger.text).toBe(text);
    expect(store.getState().ledger.planner).toMatchObject({ budget: 40000, targets: { books: 0.4, web: 0.6 } });
    // Each edit: the preview first, then the ledger of the same text.
    store.getState().setRecipeText(`${text}# edit\n`);
    await settle(30);
    expect(fake.callsOf('ledger.predict').at(-1)?.recipeText).toBe(`${text}# edit\n`);
    expect(store.getState().preview.text).toBe(store.getState().ledger.text);
    store.getState().setEpochs(2);
    await settle();
    expect(fake.callsOf('ledger.predict').at(-1)).toEqual({ recipeText: `${text}# edit\n`, epochs: 2 });
    expect(store.getState().ledger.result?.epochs).toBe(2);
    // Switching away and back with nothing new to compute asks nothing.
    const asked = fake.callsOf('ledger.predict').length;
    store.getState().setBottomTab('runs');
    store.getState().setBottomTab('ledger');
    await settle();
    expect(fake.callsOf('ledger.predict').length).toBe(asked);
  });

  it('a moved target plans with the others rescaled and writes the planned recipe into the editor', async () => {
    const { store, fake } = harness({
      handlers: { 'ledger.predict': () => ledgerResult(), 'ledger.plan': (p: Params<'ledger.plan'>) => feasiblePlan(PLANNED, p.request.targets), 'jobs.list': () => [] },
    });
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setBottomTab('ledger');
    await settle();
    const before = store.getState().recipe.text;
    store.getState().setPlanTarget('web', 0.5);
    await settle(30);
    const asked = fake.callsOf('ledger.plan').at(-1)!;
    expect(asked.recipeText).toBe(before);
    expect(asked.request).toEqual({ budget: 40000, targets: { books: 0.5, web: 0.5 }, maxRepetitions: 1 });
    expect(store.getState().recipe.text).toBe(PLANNED);
    expect(store.getState().ledger.planner.result?.feasible).toBe(true);
    store.getState().setMaxRepetitions(3);
    await settle(30);
    expect(fake.callsOf('ledger.plan').at(-1)).toEqual({ recipeText: PLANNED, request: { budget: 40000, targets: { books: 0.5, web: 0.5 }, maxRepetitions: 3 } });
    // The written recipe is previewed, and its ledger follows.
    expect(fake.callsOf('preview.run').at(-1)?.recipeText).toBe(PLANNED);
    expect(fake.callsOf('ledger.predict').at(-1)?.recipeText).toBe(PLANNED);
    // The new ledger lists the sources in another order (most seen tokens first): the targets set by hand stay.
    fake.handle('ledger.predict', () => ({ ...ledgerResult(), sources: [...ledgerResult().sources].reverse() }));
    store.getState().setRecipeText(`${PLANNED}# more\n`);
    await settle(30);
    expect(store.getState().ledger.result?.sources[0]?.source).toBe('web');
    expect(store.getState().ledger.planner.targets).toEqual({ books: 0.5, web: 0.5 });
  });

  it('an infeasible plan leaves the recipe alone and keeps the reason; a keystroke during planning wins', async () => {
    let answer = infeasiblePlan;
    let release: () => void = () => undefined;
    const { store } = harness({
      handlers: {
        'ledger.predict': () => ledgerResult(),
        'ledger.plan': () => new Promise((resolve) => (release = () => resolve(answer))),
      },
      previewGapMs: 40,
    });
    const gap = (): Promise<void> => new Promise((r) => setTimeout(r, 80));
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setBottomTab('ledger');
    await settle();
    const before = store.getState().recipe.text;
    store.getState().setPlanTarget('books', 0.9);
    // Planning from the request on, and still while a second request waits out the gap behind the first.
    expect(store.getState().ledger.planner.running).toBe(true);
    await settle();
    const first = release;
    store.getState().setPlanTarget('books', 0.95);
    first();
    await settle();
    expect(store.getState().ledger.planner.running).toBe(true);
    await gap();
    release();
    await settle();
    expect(store.getState().ledger.planner.running).toBe(false);
    expect(store.getState().recipe.text).toBe(before);
    expect(store.getState().ledger.planner.result).toEqual(infeasiblePlan);
    answer = feasiblePlan(PLANNED, {});
    await gap();
    store.getState().setBudget(1e6);
    await settle();
    store.getState().setRecipeText(`${before}# typed\n`);
    release();
    await settle();
    expect(store.getState().recipe.text).toBe(`${before}# typed\n`);
    expect(store.getState().ledger.planner.budget).toBe(1e6);
  });

  it("the run page's tokens view asks runs.ledger for the run shown, again for another run", async () => {
    const run = { ...ledgerResult(), output: 'output/a', stage: 'mix' as const, tokensRun: null, notes: [], tokenSources: { raw: { exact: false, from: 'ledger' }, filtered: { exact: false, from: 'ledger' }, sampled: { exact: true, from: 'tokens run' }, seen: { exact: true, from: 'tokens run' } } };
    const { store, fake } = harness({ handlers: { 'runs.manifest': () => Promise.reject(new Error('not needed')), 'runs.ledger': (p) => ({ ...run, output: p.path }) } });
    await store.getState().openRun('output/a');
    await settle();
    expect(fake.callsOf('runs.ledger')).toEqual([]);
    store.getState().setRunView('tokens');
    await settle();
    expect(store.getState().runPage.tokens.result?.output).toBe('output/a');
    await store.getState().openRun('output/b');
    await settle();
    expect(fake.callsOf('runs.ledger')).toEqual([{ path: 'output/a' }, { path: 'output/b' }]);
    expect(store.getState().runPage.tokens.result?.output).toBe('output/b');
  });
});
