// `buildDemo`: writes the demo workspace (documents, configs, recipe) and runs the real taggers, dedupe, MinHash and index over it.
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { dedupeConfig } from '../../../shared/dedupe/schema.js';
import { minhashConfig } from '../../../shared/dedupe/minhash-schema.js';
import { parseConfigText } from '../../../shared/recipe/load.js';
import { runDedupe } from '../dedupe/index.js';
import { runMinhash } from '../dedupe/minhash/index.js';
import { AssayError } from '../errors.js';
import { buildIndex } from '../index/index.js';
import { writeFileAtomic } from '../io/index.js';
import type { ProgressSink } from '../jobs/progress.js';
import { runTag } from '../tag/runtime.js';
import { DEDUPE_YAML, MINHASH_YAML, RECIPE_YAML, TAG_PRESET } from './configs.js';
import { generateDocuments, type DemoDocument, type Planted } from './generate.js';
import { DEMO_WARC, demoWarc } from './warc.js';

export interface DemoOptions {
  out: string;
  /** Documents to generate (default 1,000). */
  docs?: number;
  seed?: number;
  /** Documents per file (default 250). */
  perFile?: number;
  signal?: AbortSignal;
  log?: (line: string) => void;
  onProgress?: ProgressSink;
}

export interface DemoSummary {
  out: string;
  docs: number;
  files: string[];
  planted: Partial<Record<Planted, number>>;
  /** Seconds per stage. */
  stages: { stage: string; sec: number }[];
  /** Documents in the attribute index. */
  indexed: number;
}

/** Marks a finished demo: written last, so a workspace without it is an interrupted build. */
export const DEMO_MARKER = '.assay/demo.json';

function ensureEmpty(out: string): void {
  const st = statSync(out, { throwIfNoEntry: false });
  if (!st) return void mkdirSync(out, { recursive: true });
  if (!st.isDirectory()) throw new AssayError('CONFIG', `${out} exists and is not a folder`, { field: 'out' });
  if (readdirSync(out).length > 0) throw new AssayError('CONFIG', `${out} is not empty; give a new folder for the demo workspace`, { field: 'out' });
}

async function writeFiles(out: string, docs: DemoDocument[], perFile: number): Promise<string[]> {
  const files: string[] = [];
  for (const source of ['web', 'forum', 'books'] as const) {
    const mine = docs.filter((d) => d.source === source);
    for (let i = 0; i * perFile < mine.length; i++) {
      const rel = `documents/${source}-${String(i).padStart(4, '0')}.jsonl.gz`;
      const rows = mine.slice(i * perFile, (i + 1) * perFile);
      await writeFileAtomic(join(out, rel), rows.map((d) => JSON.stringify(d)).join('\n') + '\n');
      files.push(rel);
    }
  }
  return files;
}

export async function buildDemo(opts: DemoOptions): Promise<DemoSummary> {
  const out = resolve(opts.out);
  const count = opts.docs ?? 1000;
  const seed = opts.seed ?? 7;
  const log = opts.log ?? (() => undefined);
  const stages: DemoSummary['stages'] = [];
  const stage = async <T>(name: string, run: () => Promise<T>): Promise<T> => {
    log(`${name}…`);
    const t = performance.now();
    const r = await run();
    stages.push({ stage: name, sec: (performance.now() - t) / 1000 });
    return r;
  };
  ensureEmpty(out);
  const ctx = { env: {}, cpuCount: 1 };
  const docs = generateDocuments(count, seed);
  const files = await stage(`writing ${count.toLocaleString('en-US')} documents`, () => writeFiles(out, docs, opts.perFile ?? 250));
  // A few clean web pages again as the HTML a crawler fetched, in a WARC beside the data: what the Sources dialog extracts.
  const pages = docs.filter((d) => d.source === 'web' && d.metadata.planted === 'clean').slice(0, 12);
  await writeFileAtomic(join(out, DEMO_WARC), demoWarc(pages, seed), { mkdir: true, codec: 'plain' });
  await writeFileAtomic(join(out, 'recipes/demo.yaml'), RECIPE_YAML, { mkdir: true });
  await writeFileAtomic(join(out, 'configs/dedupe.yaml'), DEDUPE_YAML, { mkdir: true });
  await writeFileAtomic(join(out, 'configs/minhash.yaml'), MINHASH_YAML, { mkdir: true });
  const common = { cwd: out, signal: opts.signal, onProgress: opts.onProgress, log };
  const taggers = TAG_PRESET.flatMap((g) => g.taggers.map((name) => ({ name, experiment: g.experiment })));
  await stage(`tagging (${taggers.map((t) => t.name).join(', ')})`, () => runTag({ ...common, documents: ['documents/*.jsonl.gz'], taggers, processes: 1 }));
  const dedupe = parseConfigText(DEDUPE_YAML, dedupeConfig, ctx);
  const minhash = parseConfigText(MINHASH_YAML, minhashConfig, ctx);
  if (!dedupe.ok || !minhash.ok) throw new AssayError('INTERNAL', 'the demo dedupe/minhash configs do not parse');
  await stage('paragraph dedupe (bloom filter)', () => runDedupe(dedupe.config, common));
  await stage('MinHash near-duplicates', () => runMinhash(minhash.config, common));
  const indexed = await stage('indexing attributes for the preview', () => buildIndex(out, { signal: opts.signal, log }));
  const planted: DemoSummary['planted'] = {};
  for (const d of docs) planted[d.metadata.planted] = (planted[d.metadata.planted] ?? 0) + 1;
  const summary: DemoSummary = { out, docs: count, files, planted, stages, indexed: indexed.docs };
  await writeFileAtomic(join(out, DEMO_MARKER), JSON.stringify({ seed, docs: count, planted, builtBy: 'assay demo' }, null, 2) + '\n', { mkdir: true });
  return summary;
}
