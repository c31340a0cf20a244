// bench/preview: index build rate at 10^6 documents, then a 20-rule recipe's full breakdown (p50/p95) and memory, locate, and the token-count rate.
import { DATA_DIR, numberArg, scaled } from '../args.js';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIndex, buildSearch, PreviewEngine } from '../../workers/engine/index/index.js';
import { rng } from '../../workers/engine/testing.js';
import { benchRecipe, ensureDataset, THRESHOLDS } from './corpus.js';

const arg = numberArg;
const DOCS = arg('docs', scaled(1_000_000, 5_000));
const FILES = arg('files', scaled(20, 2));
const RUNS = arg('runs', scaled(60, 4));
const ROOT = join(DATA_DIR, `preview-${DOCS}`);
const mb = (n: number): string => `${(n / 2 ** 20).toFixed(0)} MiB`;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number;

/**
 * Two phases in two processes, so the memory reported is the preview host's alone: this one
 * generates the dataset and times the index build, then runs itself with `--phase preview`.
 */
if (!process.argv.includes('--phase')) {
  const t0 = performance.now();
  const ds = ensureDataset(ROOT, DOCS, FILES);
  console.log(`dataset: ${ds.docs.toLocaleString('en-US')} documents in ${ds.files} gzip files, ${(ds.bytes / 1e6).toFixed(0)} MB uncompressed (documents + 4 attribute sets, 20 keys) — ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  rmSync(join(ROOT, '.assay'), { recursive: true, force: true });
  const cpu = process.cpuUsage();
  // The attribute index alone (the tested rate), then the search phase `assay index` runs after it, timed apart.
  const b = await buildIndex(ROOT, { search: false });
  const own = process.cpuUsage(cpu);
  console.log(`index build: ${b.docs.toLocaleString('en-US')} docs in ${(b.ms / 1000).toFixed(1)} s = ${Math.round(b.docs / (b.ms / 1000)).toLocaleString('en-US')} docs/s (${(ds.bytes / 1e6 / (b.ms / 1000)).toFixed(0)} MB/s uncompressed input, 2 reader processes)`);
  const p = b.phases;
  const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  console.log(
    `  phases: plan ${s(p.plan)}, read ${s(p.read)} (of which this process writing rows and columns ${s(p.write)}), id index ${s(p.idIndex)}, commit + checkpoint ${s(p.commit)}; ` +
      `this process used ${s((own.user + own.system) / 1000)} CPU`,
  );
  const st = await buildSearch(ROOT);
  console.log(
    `search phase (FTS5 over the texts): ${st.docs.toLocaleString('en-US')} texts in ${(st.ms / 1000).toFixed(1)} s = ${Math.round(st.docs / (st.ms / 1000)).toLocaleString('en-US')} docs/s; ` +
      `index + search ${((b.ms + st.ms) / 1000).toFixed(1)} s = ${Math.round(b.docs / ((b.ms + st.ms) / 1000)).toLocaleString('en-US')} docs/s`,
  );
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2), '--phase', 'preview'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
  // locate by id and url against a real mix ledger of as many documents (its own corpus: documents with urls).
  const l = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./locate.ts', import.meta.url)), '--docs', String(DOCS)], { stdio: 'inherit' });
  if (l.status !== 0) process.exit(l.status ?? 1);
  // Exact token counts (`assay index --tokenizer gpt2`) of the same documents, last: it adds counts to this index.
  const k = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./tokens.ts', import.meta.url)), '--docs', String(DOCS), '--files', String(FILES), '--root', ROOT], { stdio: 'inherit' });
  process.exit(k.status ?? 1);
}

const base = process.memoryUsage();
let t = performance.now();
const engine = PreviewEngine.open(ROOT);
console.log(`open: ${(performance.now() - t).toFixed(0)} ms`);
const thresholds = [...THRESHOLDS];
t = performance.now();
const first = engine.preview(benchRecipe(thresholds));
console.log(`first preview (loads 20 columns, reads the texts span replacement touches, counts 17 sweeps): ${(performance.now() - t).toFixed(0)} ms; kept ${first.total.kept.docs.toLocaleString('en-US')} of ${first.total.docs.toLocaleString('en-US')}; rules compiled ${first.rules.filter((r) => r.path === 'compiled').length}/${first.rules.length}; sweeps ${first.rules.filter((r) => r.sweep).length}`);
for (let i = 0; i < 5; i++) engine.preview(benchRecipe(thresholds.map((x, k) => (k === i ? x * 1.01 : x))));

// Each timed preview moves one exclude's threshold (a slider drag): a new recipe text every time.
const times: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const k = i % 16;
  thresholds[k] = (thresholds[k] as number) * (i % 2 === 0 ? 1.02 : 0.99);
  t = performance.now();
  const r = engine.preview(benchRecipe(thresholds));
  times.push(performance.now() - t);
  if (r.rules.length !== 20) throw new Error('expected 20 rules');
}
console.log(`preview, full breakdown (alone/exclusive/sequential × docs/tokens/per source, 17 sweeps, replacements), one threshold changed per run, ${RUNS} runs: p50 ${pct(times, 0.5).toFixed(1)} ms, p95 ${pct(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms`);
global.gc?.();
const m = process.memoryUsage();
console.log(`preview host memory at ${DOCS.toLocaleString('en-US')} docs: rss ${mb(m.rss)} (${mb(m.rss - base.rss)} over an idle process), heap used ${mb(m.heapUsed)}, array buffers ${mb(m.arrayBuffers)}`);
ledgerAndPlanner();
engine.close();

/** Issue 14's figures: the token ledger per edit (after that edit's preview, and alone), then planner updates. */
function ledgerAndPlanner(): void {
  const sampling = `    assay: {sample: {fraction: {cc: 0.5}, seed: 1}}\n`;
  const withSampling = (): string => benchRecipe(thresholds).replace('    output:', `${sampling}    output:`);
  engine.tokenLedger(withSampling());
  const after: number[] = [];
  const alone: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const k = i % 16;
    thresholds[k] = (thresholds[k] as number) * (i % 2 === 0 ? 1.02 : 0.99);
    const text = withSampling();
    if (i % 2 === 0) {
      engine.preview(text);
      t = performance.now();
      engine.tokenLedger(text);
      after.push(performance.now() - t);
    } else {
      t = performance.now();
      engine.tokenLedger(text);
      alone.push(performance.now() - t);
    }
  }
  const l = engine.tokenLedger(withSampling());
  console.log(`token ledger (4 sources × raw/filtered/sampled/seen, tokens lost per rule; ${l.tokens.kind} tokens), one threshold changed per run: after that edit's preview p50 ${pct(after, 0.5).toFixed(1)} ms, p95 ${pct(after, 0.95).toFixed(1)} ms; with the analysis p50 ${pct(alone, 0.5).toFixed(1)} ms, p95 ${pct(alone, 0.95).toFixed(1)} ms`);
  const text = withSampling();
  const have = Math.min(...l.sources.map((x) => x.filtered.tokens));
  const r = rng(7);
  const targets = (): Record<string, number> => {
    const w = l.sources.map(() => 0.5 + r());
    const sum = w.reduce((a, b) => a + b, 0);
    return Object.fromEntries(l.sources.map((x, i) => [x.source, (w[i] as number) / sum]));
  };
  t = performance.now();
  engine.plan(text, { budget: have, targets: targets() });
  const first = performance.now() - t;
  const plans: number[] = [];
  let feasible = 0;
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    const p = engine.plan(text, { budget: have * (1 + r()), targets: targets(), maxRepetitions: 2 });
    plans.push(performance.now() - t);
    if (p.feasible) feasible++;
  }
  console.log(`planner (budget and 4 target shares changed per run, writes the recipe and its ledger): first ${first.toFixed(0)} ms (sorts each source's documents by sampling position once), then p50 ${pct(plans, 0.5).toFixed(1)} ms, p95 ${pct(plans, 0.95).toFixed(1)} ms over ${RUNS} runs (${feasible} feasible) (target ≤ 50 ms)`);
}
