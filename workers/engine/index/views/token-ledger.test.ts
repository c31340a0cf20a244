// The token ledger equals what a real mix + tokens run writes, per source, to the token; the planner meets its targets or names the binding source.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanResult } from '../../../../shared/contract/mixplan.js';
import { parseMixerConfig } from '../../mix/config.js';
import { runMix } from '../../mix/mixer.js';
import { rng, tempDir, writeJsonl } from '../../testing.js';
import { runTokens } from '../../tokenize/runtime.js';
import { NEOX_EOS, NEOX_JSON, readOutputs, variedTexts } from '../../tokenize/test-helpers.js';
import { buildIndex, PreviewEngine } from '../index.js';
import { withoutSampling } from './plan.js';

const SOURCES = ['web', 'books', 'code'] as const;

function recipe(out: string, assay = '', include = ''): string {
  return `streams:
  - name: all
    documents: [documents/*.jsonl.gz]
    attributes: [score]
    output: {path: ${out}}
    filter:
${include ? `      include: ["${include}"]\n` : ''}      exclude: ["$.attributes[?(@.score__q[0][2] > 0.8)]"]
${assay ? `    assay: ${assay}\n` : ''}`;
}

describe('token ledger and planner', () => {
  const { dir: root, cleanup } = tempDir('assay-token-ledger-');
  const sourceOf = new Map<string, string>();
  let engine: PreviewEngine;
  let n = 0;
  beforeAll(async () => {
    const r = rng(3);
    const texts = variedTexts(11, 900);
    for (let f = 0; f < 2; f++) {
      const docs = texts.slice(f * 450, f * 450 + 450).map((text, i) => ({ id: `f${f}-${i}`, text: i % 50 === 7 ? ' \n ' : text, source: SOURCES[(i + f) % 3] as string }));
      for (const d of docs) sourceOf.set(d.id, d.source);
      writeJsonl(join(root, `documents/p${f}.jsonl.gz`), docs);
      writeJsonl(join(root, `attributes/score/p${f}.jsonl.gz`), docs.map((d) => ({ id: d.id, attributes: { score__q: [[0, 1, Math.round(r() * 100) / 100]], score__random_number_v1__random: [[0, 1, r()]] } })));
    }
    await buildIndex(root, { tokenizer: NEOX_JSON, eosTokenId: NEOX_EOS });
    engine = PreviewEngine.open(root);
  }, 120_000);
  afterAll(() => {
    engine?.close();
    cleanup();
  });

  /** Tokens `assay tokens` writes per source for a real mix of `text` (with the index's tokenizer). */
  async function written(text: string): Promise<Record<string, { docs: number; tokens: number }>> {
    const out = `out/m${++n}`;
    await runMix(parseMixerConfig(text.replace(/path: out\/\w+/, `path: ${out}`), 'r.yaml'), { cwd: root, processes: 1 });
    await runTokens({ documents: [`${out}/*.gz`], destination: `tok/m${n}`, tokenizer: { nameOrPath: NEOX_JSON, eosTokenId: NEOX_EOS }, cwd: root });
    const per: Record<string, { docs: number; tokens: number }> = {};
    for (const row of readOutputs(join(root, `tok/m${n}`))) {
      const c = (per[sourceOf.get(row.id) as string] ??= { docs: 0, tokens: 0 });
      c.docs++;
      c.tokens += row.end - row.start;
    }
    return per;
  }

  const figures = (l: ReturnType<PreviewEngine['tokenLedger']>, stage: 'filtered' | 'sampled' | 'seen'): Record<string, { docs: number; tokens: number }> =>
    Object.fromEntries(l.sources.filter((s) => s[stage].docs > 0).map((s) => [s.source, { docs: s[stage].docs, tokens: s[stage].tokens }]));

  it('predicts filtered, sampled and seen tokens per source exactly as a real mix and tokens run writes them', async () => {
    const text = recipe('out/x', "{sample: {fraction: {web: 0.5, books: 0.8}, seed: 3}, repeat: {code: 2}}");
    const l = engine.tokenLedger(text);
    expect(l.tokens).toMatchObject({ kind: 'exact' });
    // Documents empty after stripping are kept by the mixer but written by no tokens run: compare those that have tokens.
    const nonEmpty = (f: Record<string, { docs: number; tokens: number }>): Record<string, number> => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.tokens]));
    expect(nonEmpty(figures(l, 'seen'))).toEqual(nonEmpty(await written(text)));
    expect(nonEmpty(figures(l, 'filtered'))).toEqual(nonEmpty(await written(withoutSampling(text))));
    const web = l.sources.find((s) => s.source === 'web')!;
    expect(web.sampleRate).toBeGreaterThan(0.4);
    expect(web.sampleRate).toBeLessThan(0.6);
    expect(l.sources.find((s) => s.source === 'code')!.seen.tokens).toBe(2 * l.sources.find((s) => s.source === 'code')!.sampled.tokens);
    expect(l.sources.reduce((a, s) => a + s.share, 0)).toBeCloseTo(1, 9);
    expect(web.lostByRule.map((x) => x.label)).toEqual(['[all] score__q > 0.8', '[all] not sampled (fraction web: 0.5, books: 0.8, seed 3)']);
  }, 60_000);

  it("recognises Dolma's sampling, a random_number_v1 include threshold, as sampling: filtered ignores it", async () => {
    const dolma = recipe('out/d', '', '$.attributes[?(@.score__random_number_v1__random[0][2] < 0.4)]');
    const l = engine.tokenLedger(dolma);
    const plain = engine.tokenLedger(recipe('out/d'));
    expect(figures(l, 'filtered')).toEqual(figures(plain, 'filtered'));
    const got = Object.fromEntries(Object.entries(await written(dolma)).map(([k, v]) => [k, v.tokens]));
    expect(Object.fromEntries(l.sources.map((x) => [x.source, x.sampled.tokens]))).toEqual(got);
    for (const x of l.sources) {
      expect(x.sampleRate).toBeGreaterThan(0.3);
      expect(x.sampleRate).toBeLessThan(0.5);
    }
  }, 60_000);

  it('meets 20 random feasible plans within 0.5 % of each target and within the budget; the mix writes what it planned', async () => {
    const r = rng(99);
    const base = engine.tokenLedger(recipe('out/p'));
    const have = new Map(base.sources.map((s) => [s.source, s.filtered.tokens]));
    let [upsampled, subsampled] = [0, 0];
    for (let k = 0; k < 20; k++) {
      const w = SOURCES.map(() => 0.2 + r());
      const targets = Object.fromEntries(SOURCES.map((s, i) => [s, (w[i] as number) / w.reduce((a, b) => a + b, 0)]));
      const maxRepetitions = 1 + Math.floor(r() * 3);
      const room = Math.min(...SOURCES.map((s) => ((have.get(s) as number) * maxRepetitions) / (targets[s] as number)));
      const budget = Math.floor(room * (0.3 + 0.65 * r()));
      const p = engine.plan(recipe('out/p'), { budget, targets, maxRepetitions });
      expect(p.feasible, JSON.stringify(p)).toBe(true);
      const ok = p as Extract<PlanResult, { feasible: true }>;
      expect(ok.ledger.total.seen.tokens).toBeLessThanOrEqual(budget);
      for (const s of ok.sources) expect(Math.abs(s.share - s.target), `${s.source} in plan ${k}`).toBeLessThan(0.005);
      if (ok.sources.some((s) => s.repeat > 1)) upsampled++;
      if (ok.sources.some((s) => s.fraction < 1)) subsampled++;
      if (k < 2) expect(Object.values(await written(ok.recipe)).reduce((a, c) => a + c.tokens, 0)).toBe(ok.ledger.total.seen.tokens);
    }
    expect(upsampled).toBeGreaterThan(2);
    expect(subsampled).toBeGreaterThan(10);
  }, 120_000);

  it('refuses 10 infeasible plans naming the binding source, and bad requests', () => {
    const base = engine.tokenLedger(recipe('out/p'));
    const have = new Map(base.sources.map((s) => [s.source, s.filtered.tokens]));
    const r = rng(5);
    for (let k = 0; k < 10; k++) {
      const short = SOURCES[k % 3] as string;
      const targets = Object.fromEntries(SOURCES.map((s) => [s, s === short ? 0.6 : 0.2]));
      const maxRepetitions = 1 + (k % 2);
      const budget = Math.ceil(((have.get(short) as number) * maxRepetitions) / 0.6 * (1.05 + r()));
      const p = engine.plan(recipe('out/p'), { budget, targets, maxRepetitions });
      expect(p).toMatchObject({ feasible: false, source: short });
      expect((p as { reason: string }).reason).toMatch(new RegExp(`^${short}: needs .* tokens \\(0\\.6 of .*\\), has .* filtered × max_repetitions ${maxRepetitions} = `));
    }
    expect(engine.plan(recipe('out/p'), { budget: 1000, targets: { web: 0.5, books: 0.5 } })).toMatchObject({ feasible: false, source: 'code', reason: expect.stringMatching(/no target/) });
    expect(engine.plan(recipe('out/p'), { budget: 1000, targets: { web: 0.6, books: 0.2, code: 0.2 }, maxSourceFraction: 0.5 })).toMatchObject({ feasible: false, source: 'web' });
    expect(() => engine.plan(recipe('out/p'), { budget: 1000, targets: { web: 0.6, books: 0.2, code: 0.3 } })).toThrow(/add up to 1/);
  });
});

