// bench/preview/sample: the preview at 10^7 documents — exact (whole index) and on a uniform sample of 10^6 with confidence intervals, and how often the intervals hold the exact figures.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Count, CountBySource, PreviewResult } from '../../shared/contract/preview.js';
import { buildIndex, PreviewEngine } from '../../workers/engine/index/index.js';
import { indexPath } from '../../workers/engine/index/store/db.js';
import { rng } from '../../workers/engine/testing.js';
import { DATA_DIR, numberArg, scaled } from '../args.js';
import { benchRecipe, ensureDataset, THRESHOLDS } from './corpus.js';

const DOCS = numberArg('docs', scaled(10_000_000, 20_000));
const FILES = numberArg('files', scaled(200, 4));
const SAMPLE = numberArg('sample', scaled(1_000_000, 4_000));
const RUNS = numberArg('runs', scaled(60, 6));
const RECIPES = numberArg('recipes', scaled(200, 20));
const ROOT = join(DATA_DIR, `preview-${DOCS}`);
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number;
const gib = (n: number): string => `${(n / 2 ** 30).toFixed(2)} GiB`;
const fmt = (n: number): string => n.toLocaleString('en-US');

// Memory is read after a full collection: run again with --expose-gc when started without it.
if (typeof global.gc !== 'function') {
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

ensureDataset(ROOT, DOCS, FILES);
// --rebuild times the index build (2 reader processes) even when an index is there.
if (process.argv.includes('--rebuild')) rmSync(join(ROOT, '.assay'), { recursive: true, force: true });
if (!existsSync(indexPath(ROOT))) {
  const b = await buildIndex(ROOT, { search: false });
  const p = b.phases;
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  console.log(
    `index build: ${fmt(b.docs)} docs in ${(b.ms / 1000).toFixed(1)} s = ${fmt(Math.round(b.docs / (b.ms / 1000)))} docs/s (2 reader processes; ` +
      `read ${s(p.read)}, of which this process writing ${s(p.write)}; id index ${s(p.idIndex)}; commit + checkpoint ${s(p.commit)})`,
  );
}

/** Slider drags as bench/preview/run.ts times them: one threshold moved per preview, after a first preview and five warm-ups. */
function drags(engine: PreviewEngine, label: (first: PreviewResult) => string): void {
  const thresholds = [...THRESHOLDS];
  let t = performance.now();
  const r = engine.preview(benchRecipe(thresholds));
  const first = performance.now() - t;
  for (let i = 0; i < 5; i++) engine.preview(benchRecipe(thresholds.map((x, k) => (k === i ? x * 1.01 : x))));
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const k = i % 16;
    thresholds[k] = (thresholds[k] as number) * (i % 2 === 0 ? 1.02 : 0.99);
    t = performance.now();
    engine.preview(benchRecipe(thresholds));
    times.push(performance.now() - t);
  }
  global.gc?.();
  const m = process.memoryUsage();
  console.log(`${label(r)}: first preview ${(first / 1000).toFixed(1)} s; 20-rule full breakdown, one threshold changed per run, ${RUNS} runs: p50 ${pct(times, 0.5).toFixed(1)} ms, p95 ${pct(times, 0.95).toFixed(1)} ms; rss ${gib(m.rss)}`);
}

/** Every count of a result, by name: totals and rules (alone / exclusive / in order), overall and per source. */
function figures(r: PreviewResult): Map<string, Count> {
  const out = new Map<string, Count>();
  const add = (name: string, c: CountBySource): void => {
    out.set(name, c);
    for (const [s, x] of Object.entries(c.bySource)) out.set(`${name}/${s}`, x);
  };
  add('kept', r.total.kept);
  add('dropped', r.total.dropped);
  for (const rule of r.rules) for (const k of ['alone', 'exclusive', 'sequential'] as const) add(`${rule.index}.${k}`, rule[k]);
  return out;
}

// The whole index first, so the memory printed is its engine's alone (this process holds nothing else yet).
const exact = PreviewEngine.open(ROOT);
drags(exact, () => `exact preview (${fmt(DOCS)} documents)`);
const t0 = performance.now();
const sampled = PreviewEngine.open(ROOT, { sample: { docs: SAMPLE, seed: 1 } });
console.log(`sampled engine: ${fmt(SAMPLE)} of ${fmt(DOCS)} documents asked, opened in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
drags(sampled, (r) => `sampled preview (${fmt(r.sample?.docs ?? DOCS)} documents held; rss with both engines)`);

// Random recipes: every threshold drawn in [0.5, 1.5] × its start; the exact figures against the sample's intervals.
const r = rng(3);
let figs = 0;
let held = 0;
let keptHeld = 0;
let recipesAll = 0;
const widths: number[] = [];
const exactTimes: number[] = [];
for (let i = 0; i < RECIPES; i++) {
  const text = benchRecipe(THRESHOLDS.map((x) => x * (0.5 + r())));
  const t = performance.now();
  const a = exact.preview(text);
  exactTimes.push(performance.now() - t);
  const b = sampled.preview(text);
  const fa = figures(a);
  const fb = figures(b);
  let all = true;
  for (const [name, x] of fa) {
    // A source the sample holds none of in a set has no entry of its own; its figure is then 0 with no interval.
    const y = fb.get(name);
    for (const k of ['docs', 'tokens'] as const) {
      figs++;
      const ci = y?.ci?.[k] ?? [0, 0];
      if (x[k] >= ci[0] && x[k] <= ci[1]) held++;
      else all = false;
    }
  }
  const k = b.total.kept.ci;
  if (k && a.total.kept.docs >= k.docs[0] && a.total.kept.docs <= k.docs[1] && a.total.kept.tokens >= k.tokens[0] && a.total.kept.tokens <= k.tokens[1]) keptHeld++;
  if (all) recipesAll++;
  if (k) widths.push((k.docs[1] - k.docs[0]) / 2 / Math.max(1, b.total.kept.docs));
}
// --recipes 0 times the previews only.
if (RECIPES > 0) console.log(
  `intervals (95%) over ${RECIPES} random recipes: ${(100 * (held / figs)).toFixed(2)}% of ${fmt(figs)} figures hold the exact value; ` +
    `kept documents and tokens both held in ${keptHeld} of ${RECIPES} recipes (${((100 * keptHeld) / RECIPES).toFixed(1)}%); every figure of a recipe held in ${recipesAll}; ` +
    `kept ± ${(100 * pct(widths, 0.5)).toFixed(2)}% (median half-width); exact previews of those recipes p50 ${(pct(exactTimes, 0.5) / 1000).toFixed(2)} s`,
);
sampled.close();
exact.close();
