// A sampled engine holds a uniform draw of the index: every document it holds answers as the whole index's does, figures scale with intervals.
import { describe, expect, it } from 'vitest';
import { rng } from '../../testing.js';
import { PreviewEngine } from '../index.js';
import { randomRecipe } from '../recipe-grammar.js';
import { indexedDataset, ODD_SET, TAGGED_SETS } from '../test-dataset.js';
import { countEstimate, fractionEstimate, sumEstimate, zOf } from './estimate.js';

describe('sampled preview', () => {
  const ds = indexedDataset('assay-sample-');

  it('holds about the asked share, drawn the same way every time, and a sample as large as the index is the index', () => {
    const a = PreviewEngine.open(ds.root, { sample: { docs: 80, seed: 9 } });
    const b = PreviewEngine.open(ds.root, { sample: { docs: 80, seed: 9 } });
    const c = PreviewEngine.open(ds.root, { sample: { docs: 80, seed: 10 } });
    const all = PreviewEngine.open(ds.root, { sample: { docs: 10_000, seed: 9 } });
    try {
      const text = 'streams:\n  - name: s\n    documents: [documents/**/*]\n    output: {path: out}\n    filter: {exclude: ["$.attributes[?(@.no_such_key > 1)]"]}\n';
      const pa = a.preview(text);
      expect(pa.exact).toBe(false);
      expect(pa.sample?.of).toBe(160);
      // A Bernoulli(0.5) draw of 160: 80 ± 4σ.
      expect(pa.sample?.docs).toBeGreaterThan(55);
      expect(pa.sample?.docs).toBeLessThan(105);
      expect(b.preview(text).sample).toEqual(pa.sample);
      const held = (e: PreviewEngine): string[] => ds.docs().map((d) => String(d.id)).filter((id) => { try { e.explain(text, id); return true; } catch { return false; } });
      expect(held(b)).toEqual(held(a));
      expect(held(c)).not.toEqual(held(a));
      const whole = all.preview(text);
      expect(whole.exact).toBe(true);
      expect(whole.sample).toBeUndefined();
      expect(whole.total).toEqual(ds.engine().preview(text).total);
    } finally {
      for (const e of [a, b, c, all]) e.close();
    }
  });

  it('every held document has its own line, fate, rule and output text, and the figures are the held ones scaled (20 random recipes)', () => {
    const exact = ds.engine();
    const sampled = PreviewEngine.open(ds.root, { sample: { docs: 70, seed: 3 } });
    try {
      const r = rng(77);
      const catalogue = exact.catalogue();
      let checked = 0;
      for (let n = 0; n < 20; n++) {
        const recipe = randomRecipe(r, n, { sets: [...TAGGED_SETS, ODD_SET], partialSets: [ODD_SET], catalogue, sampling: true });
        try {
          exact.preview(recipe.text);
        } catch {
          continue;
        }
        const p = sampled.preview(recipe.text);
        const s = p.sample!;
        let kept = 0;
        let held = 0;
        for (const d of ds.docs()) {
          const id = String(d.id);
          let got;
          try {
            got = sampled.explain(recipe.text, id);
          } catch (e) {
            expect((e as Error).message).toMatch(/no document with id/);
            continue;
          }
          held++;
          const want = exact.explain(recipe.text, id);
          expect({ ...got, rules: undefined }, `recipe #${n} ${id}\n${recipe.text}`).toEqual({ ...want, rules: undefined });
          if (got.fate === 'kept') kept++;
        }
        expect(held).toBe(s.docs);
        // One stream, no repeats: the kept figure is the held kept documents, scaled.
        if (recipe.output.length !== 1 || /repeat/.test(recipe.text)) continue;
        const est = countEstimate(kept, { n: s.docs, N: s.of, z: zOf(s.level) });
        expect(p.total.kept.docs).toBe(est.value);
        expect(p.total.kept.ci?.docs).toEqual(est.ci);
        checked++;
      }
      expect(checked).toBeGreaterThan(10);
    } finally {
      sampled.close();
    }
  });

  it('refuses text search on a sample (its positions are the whole index\'s)', () => {
    const sampled = PreviewEngine.open(ds.root, { sample: { docs: 70, seed: 3 } });
    try {
      expect(() => sampled.documentsPage({ offset: 0, limit: 5, search: 'the' } as never)).toThrow(/whole index/);
    } finally {
      sampled.close();
    }
  });
});

describe('estimates', () => {
  const d = { n: 1000, N: 100_000, z: zOf(0.95) };

  it('z quantiles', () => {
    expect(zOf(0.95)).toBeCloseTo(1.959964, 5);
    expect(zOf(0.99)).toBeCloseTo(2.575829, 5);
    expect(zOf(0.9)).toBeCloseTo(1.644854, 5);
  });

  it('counts: scaled, inside what the sample proves, and exact when the sample is everything', () => {
    const c = countEstimate(100, d);
    expect(c.value).toBe(10_000);
    expect(c.ci[0]).toBeLessThan(10_000);
    expect(c.ci[1]).toBeGreaterThan(10_000);
    // Normal approximation of the binomial: ≈ ±1.96·√(0.09/1000)·N ≈ ±1,860.
    expect(c.ci[1] - c.ci[0]).toBeGreaterThan(3000);
    expect(c.ci[1] - c.ci[0]).toBeLessThan(4500);
    expect(countEstimate(0, d).ci[0]).toBe(0);
    expect(countEstimate(0, d).ci[1]).toBeGreaterThan(0);
    expect(countEstimate(1000, d).ci[1]).toBe(100_000);
    expect(countEstimate(7, { n: 50, N: 50, z: 1.96 })).toEqual({ value: 7, ci: [7, 7] });
  });

  it('sums: never below what the sample holds, wider for skewed values', () => {
    const flat = sumEstimate(100 * 50, 100 * 2500, 100, d, 50);
    const skew = sumEstimate(100 * 50, 99 * 0 + 5000 * 5000, 100, d, 50);
    expect(flat.value).toBe(500_000);
    expect(skew.value).toBe(500_000);
    expect(skew.ci[1] - skew.ci[0]).toBeGreaterThan(flat.ci[1] - flat.ci[0]);
    expect(sumEstimate(0, 0, 0, d, 50).ci[1]).toBeGreaterThan(0);
    expect(sumEstimate(123, 1000, 3, d, 50).ci[0]).toBeGreaterThanOrEqual(123);
  });

  it('fractions stay in [0, 1]', () => {
    const [lo, hi] = fractionEstimate(0, 500, d);
    expect(lo).toBe(0);
    expect(hi).toBeGreaterThan(0);
    expect(fractionEstimate(500, 500, d)[1]).toBe(1);
  });
});
