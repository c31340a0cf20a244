// bench/preview/host: run.ts's slider-drag previews through the app's paths (the host's preview worker thread; the forked host process) against the engine called directly.
import { join } from 'node:path';
import { DATA_DIR, numberArg, scaled } from '../args.js';
import { PreviewEngine } from '../../workers/engine/index/index.js';
import { forkHost } from '../../workers/host/launch-process.js';
import { PreviewThread } from '../../workers/host/preview-thread.js';
import { HostSupervisor } from '../../workers/host/supervisor.js';
import { benchRecipe, ensureDataset, THRESHOLDS } from './corpus.js';

const DOCS = numberArg('docs', scaled(1_000_000, 2_000));
const FILES = numberArg('files', scaled(20, 2));
const RUNS = numberArg('runs', scaled(60, 5));
const ROOT = join(DATA_DIR, `preview-${DOCS}`);
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number;

type Preview = (recipeText: string) => Promise<unknown>;

/**
 * Each path warms up as run.ts does (first preview, then five); then the timed previews, each with one
 * threshold moved, go to the paths in turn, so a busy machine slows them alike.
 */
async function measure(paths: [string, Preview][]): Promise<void> {
  const thresholds = [...THRESHOLDS];
  for (const [name, preview] of paths) {
    const t = performance.now();
    await preview(benchRecipe(thresholds));
    console.log(`${name}: first preview ${(performance.now() - t).toFixed(0)} ms`);
    for (let i = 0; i < 5; i++) await preview(benchRecipe(thresholds.map((x, k) => (k === i ? x * 1.01 : x))));
  }
  const times = paths.map((): number[] => []);
  for (let i = 0; i < RUNS; i++) {
    const k = i % 16;
    thresholds[k] = (thresholds[k] as number) * (i % 2 === 0 ? 1.02 : 0.99);
    const text = benchRecipe(thresholds);
    for (const [j, [, preview]] of paths.entries()) {
      const t = performance.now();
      await preview(text);
      times[j]!.push(performance.now() - t);
    }
  }
  paths.forEach(([name], j) => {
    const xs = times[j] as number[];
    console.log(`${name}: warm p50 ${pct(xs, 0.5).toFixed(1)} ms, p95 ${pct(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (${RUNS} runs)`);
  });
}

ensureDataset(ROOT, DOCS, FILES);
console.log(`${DOCS.toLocaleString('en-US')} documents (index built by bench/preview/run.ts)`);
const engine = PreviewEngine.open(ROOT);
const thread = new PreviewThread({ root: ROOT, env: () => ({}) });
const host = new HostSupervisor(forkHost({ workspace: ROOT, stdio: 'ignore' }));
// The same recipe text twice would hit the engine's recipe cache; each path gets every text once, like a drag.
await measure([
  ['engine called directly', async (text) => engine.preview(text)],
  ['through the preview worker (one structured-clone hop each way)', (text) => thread.call('preview', [text])],
  ['through the forked host (IPC + worker: what assay serve does)', (text) => host.invoke('preview.run', { recipeText: text })],
]);
engine.close();
await thread.close();
await host.close();
