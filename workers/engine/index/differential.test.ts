// Preview = run: for random recipes, the preview keeps exactly the documents `assay mix` writes, with the same text.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMixerConfig } from '../mix/config.js';
import { runMix } from '../mix/mixer.js';
import { readJsonlFile, rng } from '../testing.js';
import { randomRecipe } from './recipe-grammar.js';
import { indexedDataset, ODD_SET, TAGGED_SETS } from './test-dataset.js';

const RECIPES = Number(process.env.ASSAY_DIFF_RECIPES ?? 220);

interface Outcome {
  ok: boolean;
  error?: string;
  rows: Record<string, unknown>[];
  droppedBy: Map<string, number>;
}

async function mix(root: string, text: string, outputs: string[]): Promise<Outcome> {
  try {
    const summary = await runMix(parseMixerConfig(text, 'recipe.yaml'), { cwd: root, processes: 1 });
    const rows = outputs.flatMap((o) => {
      const dir = join(root, o);
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.gz')).flatMap((f) => readJsonlFile(join(dir, f))) : [];
    });
    const droppedBy = new Map<string, number>();
    for (const s of summary.streams) for (const d of s.droppedBy) droppedBy.set(`${s.name}:${d.key}`, d.docs);
    return { ok: true, rows, droppedBy };
  } catch (e) {
    return { ok: false, error: (e as Error).message, rows: [], droppedBy: new Map() };
  } finally {
    for (const o of outputs) rmSync(join(root, o), { recursive: true, force: true });
  }
}

describe('preview = run (differential)', () => {
  const ds = indexedDataset('assay-diff-');
  const root = ds.root;

  it(`${RECIPES} random recipes keep the same documents with the same text as assay mix`, async () => {
    const engine = ds.engine();
    const r = rng(2024);
    const catalogue = engine.catalogue();
    const stats = { ok: 0, failedBoth: 0, compiled: 0, exact: 0, kept: 0, replaced: 0, sampled: 0, repeated: 0 };
    for (let n = 0; n < RECIPES; n++) {
      const recipe = randomRecipe(r, n, { sets: [...TAGGED_SETS, ODD_SET], partialSets: [ODD_SET], catalogue, sampling: true });
      const ctx = `recipe #${n}:\n${recipe.text}`;
      const run = await mix(root, recipe.text, recipe.output);
      let preview;
      try {
        preview = engine.preview(recipe.text, { ids: true });
      } catch (e) {
        expect(run.ok, `${ctx}\npreview failed (${(e as Error).message}) but mix succeeded`).toBe(false);
        // Both stop at the same document with the same message (file:line and the rule's field).
        expect((e as Error).message, ctx).toBe(run.error);
        if (process.env.ASSAY_DIFF_VERBOSE) console.log(`both failed:\n  mix: ${run.error}\n  preview: ${(e as Error).message}`);
        stats.failedBoth++;
        continue;
      }
      expect(run.ok, `${ctx}\nmix failed (${run.error}) but preview succeeded`).toBe(true);
      const want = run.rows.map((d) => String(d.id)).sort();
      expect([...(preview.keptIds ?? [])].sort(), ctx).toEqual(want);
      for (const row of run.rows) {
        const e = engine.explain(recipe.text, String(row.id));
        expect(e.fate, `${ctx}\n${String(row.id)}`).toBe('kept');
        expect(e.output, `${ctx}\n${String(row.id)}`).toBe(row.text);
        if (e.replaced.length > 0) stats.replaced++;
      }
      // The mixer's summary counts each dropped document under the first rule that fired: sequential.
      for (const rule of preview.rules) {
        if (rule.kind === 'span_replacement') continue;
        const key = rule.kind === 'min_text_length' || rule.kind === 'sample' ? rule.kind : rule.kind === 'include' ? 'include' : `exclude[${recipeExcludePosition(preview.rules, rule.index)}]`;
        const isLastInclude = rule.kind !== 'include' || !preview.rules.some((x) => x.kind === 'include' && x.stream === rule.stream && x.index > rule.index);
        if (isLastInclude) expect(rule.sequential.docs, `${ctx}\n${key}`).toBe(run.droppedBy.get(`${rule.stream}:${key}`) ?? 0);
        if (rule.kind === 'include' || rule.kind === 'exclude') stats[rule.path]++;
      }
      expect(preview.total.kept.docs).toBe(run.rows.length);
      if (preview.rules.some((x) => x.kind === 'sample' && x.sequential.docs > 0)) stats.sampled++;
      if (new Set(want).size < want.length) stats.repeated++;
      stats.ok++;
      stats.kept += run.rows.length;
    }
    console.log(`differential: ${stats.ok} recipes compared, ${stats.failedBoth} failed in both, ${stats.kept} kept documents explained (${stats.replaced} with replacements); rules compiled ${stats.compiled}, exact ${stats.exact}; ${stats.sampled} sampled, ${stats.repeated} with repeats`);
    expect(stats.ok).toBeGreaterThan(RECIPES * 0.7);
    expect(stats.sampled).toBeGreaterThan(RECIPES * 0.15);
    expect(stats.repeated).toBeGreaterThan(RECIPES * 0.05);
    expect(stats.compiled).toBeGreaterThan(stats.exact * 2);
  }, 300_000);
});

function recipeExcludePosition(rules: { index: number; kind: string; stream: string }[], index: number): number {
  const rule = rules.find((r) => r.index === index);
  return rules.filter((r) => r.kind === 'exclude' && r.stream === rule?.stream && r.index < index).length;
}
