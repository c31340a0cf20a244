// bench/decon: eval n-gram index build (items/s, bytes per n-gram) and decon tagging MB/s per core against a 10^5-item index.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { DeconIndex } from '../../workers/engine/decon/index.js';
import { loadIndex, saveIndex } from '../../workers/engine/decon/index-file.js';
import { deconTagger } from '../../workers/engine/decon/tagger.js';
import { lcg } from '../../workers/engine/decon/test-corpus.js';
import { NORMALISATION } from '../../workers/engine/decon/words.js';
import { runTag } from '../../workers/engine/tag/runtime.js';
import { DATA_DIR, numberArg, runMeasured, scaled } from '../args.js';
import { ensureCorpus } from '../mix/corpus.js';

const ROOT = join(DATA_DIR, 'mix');
const OUT = join(DATA_DIR, 'decon');
const INDEX = join(OUT, 'eval.decon.idx');
const CORPUS_MB = scaled(200, 4);
const ITEMS = numberArg('items', scaled(100_000, 2_000));
const FILES_USED = numberArg('files-used', 2);
const N = 13;

/**
 * Eval items drawn from the corpus's own words (15–45 of them, like a question with its choices), so nearly every
 * document window is made of known words and is looked up: the slow case for the tagger.
 */
function evalItems(files: string[]): { id: string; text: string }[] {
  const words = [...new Set(gunzipSync(readFileSync(files[0] as string)).toString('utf8').slice(0, 2_000_000).match(/[a-z]+/g) ?? [])];
  const rnd = lcg(5);
  return Array.from({ length: ITEMS }, (_, k) => ({ id: String(k), text: Array.from({ length: 15 + rnd(31) }, () => words[rnd(words.length)]).join(' ') }));
}

async function build(files: string[]): Promise<string> {
  const items = evalItems(files);
  const heap0 = process.memoryUsage();
  const t = performance.now();
  const index = DeconIndex.build([{ config: { name: 'bench', path: 'generated', fields: ['text'] }, sha256: 'generated', items }], N);
  const sec = (performance.now() - t) / 1000;
  const heap1 = process.memoryUsage();
  const grams = index.table.count;
  const heapDelta = heap1.heapUsed + heap1.arrayBuffers - heap0.heapUsed - heap0.arrayBuffers;
  mkdirSync(OUT, { recursive: true });
  await saveIndex(INDEX, index, { n: N, normalisation: NORMALISATION, sets: [{ name: 'bench', fields: ['text'], idField: null, sha256: 'generated' }] });
  return [
    `  index build: ${ITEMS.toLocaleString('en-US')} items, ${grams.toLocaleString('en-US')} distinct ${N}-grams in ${sec.toFixed(2)} s = ${Math.round(ITEMS / sec).toLocaleString('en-US')} items/s`,
    `  memory per n-gram while building: ${(index.ngramBytes / grams).toFixed(1)} bytes in the table + postings (ids, hashes, slots, prefilter; arrays grown by doubling), ${(heapDelta / grams).toFixed(1)} bytes of heap growth`,
  ].join('\n');
}

/** Tags the files on one core against the saved index (loaded first and timed apart). */
async function measure(files: string[]): Promise<{ sec: number; bytes: number; loadSec: number; loadedBytesPerGram: number }> {
  const { index } = await loadIndex(INDEX);
  const loadedBytesPerGram = index.ngramBytes / index.table.count;
  rmSync(join(ROOT, 'data', 'attributes', 'decon_bench'), { recursive: true, force: true });
  const t0 = performance.now();
  await deconTagger.create({ index: INDEX }, { seed: 0, cwd: OUT });
  const loadSec = (performance.now() - t0) / 1000;
  const t = performance.now();
  const s = await runTag({ documents: files, taggers: [{ name: 'decon', options: { index: INDEX } }], experiment: 'decon_bench', ignoreExisting: true, processes: 1 });
  const sec = (performance.now() - t) / 1000;
  // The shared bench corpus stays as the other benches expect it.
  rmSync(join(ROOT, 'data', 'attributes', 'decon_bench'), { recursive: true, force: true });
  return { sec, bytes: s.bytes, loadSec, loadedBytesPerGram };
}

const info = ensureCorpus(ROOT, CORPUS_MB, 8);
const files = info.files.slice(0, FILES_USED);
if (process.argv.includes('--measure')) {
  process.stdout.write(JSON.stringify(await measure(files)) + '\n');
} else {
  process.stderr.write(`bench/decon: ${ITEMS} eval items; tagging ${FILES_USED} of the 8 bench/mix corpus files on one pinned core\n`);
  const built = await build(info.files);
  const node = [process.execPath, '--import', 'tsx', fileURLToPath(import.meta.url), '--measure', '--files-used', String(FILES_USED), '--items', String(ITEMS)];
  const m = runMeasured<{ sec: number; bytes: number; loadSec: number; loadedBytesPerGram: number }>(node, 'tagging');
  process.stdout.write(
    `bench/decon — n = ${N}\n${built}\n` +
      `  index load: ${m.loadSec.toFixed(2)} s; loaded (exact-size arrays): ${m.loadedBytesPerGram.toFixed(1)} bytes per n-gram\n` +
      `  decon tagging: ${(m.bytes / 1e6).toFixed(0)} MB in ${m.sec.toFixed(1)} s = ${(m.bytes / 1e6 / m.sec).toFixed(1)} MB/s on one core (target ≥ 20)\n`,
  );
}
