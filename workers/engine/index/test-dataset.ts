// Test helper: a small Dolma dataset with real taggers' attributes and a hand-made set of irregular values.
import { createRequire } from 'node:module';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type * as ZstdNapi from 'zstd-napi';
import { runTag } from '../tag/runtime.js';
import { afterAll, beforeAll } from 'vitest';
import { REPO_ROOT, rng, tempDir, writeJsonl } from '../testing.js';
import { buildIndex, PreviewEngine } from './index.js';

const require = createRequire(import.meta.url);

/** Documents files of the dataset and how many documents each holds. */
export const FILES = { 'documents/a.jsonl.gz': 70, 'documents/b/c.jsonl': 50, 'documents/d.jsonl.zst': 40 } as const;
/** Attribute sets written by taggers, and the hand-made one (absent for d.jsonl.zst). */
export const TAGGED_SETS = ['gopher', 'c4', 'pii', 'misc'] as const;
export const ODD_SET = 'odd';

function sentences(): string[] {
  const dir = join(REPO_ROOT, 'node_modules/nlp-corpus/builds');
  return [0, 1, 2].flatMap((i) => JSON.parse(readFileSync(join(dir, `doc-${i}.json`), 'utf8')) as string[]);
}

const EXTRAS = [
  'Write to john.doe@example.com for details.',
  'Call (555) 123-4567 today!',
  'Server at 192.168.10.12 is down',
  'function f() { return 1; }',
  'Lorem ipsum dolor sit amet.',
  'Enable JavaScript to continue',
  '- first item\n- second item\n- third item',
  'Wait for it…\nAnd more…',
  'emoji 😀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 text',
  'repeat repeat repeat repeat repeat repeat',
  'same line\nsame line\nsame line',
];

function makeText(r: () => number, pool: readonly string[]): string {
  const kind = r();
  if (kind < 0.04) return '';
  if (kind < 0.07) return ' \u3000 \n';
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * (kind < 0.3 ? 3 : 12));
  for (let i = 0; i < n; i++) parts.push(r() < 0.25 ? (EXTRAS[Math.floor(r() * EXTRAS.length)] as string) : (pool[Math.floor(r() * pool.length)] as string));
  let text = parts.join(r() < 0.5 ? '\n' : ' ');
  if (r() < 0.15) text = `  \u00a0${text}\n\n`;
  return text;
}

function makeDoc(r: () => number, file: number, i: number, pool: readonly string[]): Record<string, unknown> {
  const doc: Record<string, unknown> = { id: `doc-${file}-${i}`, text: makeText(r, pool) };
  const s = r();
  if (s < 0.85) doc.source = s < 0.4 ? 'web' : s < 0.7 ? 'books' : 'code';
  const m = r();
  if (m < 0.8) {
    const meta: Record<string, unknown> = { length: Math.floor(r() * 5000), lang: ['en', 'de', 'fr'][Math.floor(r() * 3)] };
    if (r() < 0.5) meta.url = `https://site${Math.floor(r() * 5)}.example/page/${i}`;
    if (r() < 0.5) meta.flag = r() < 0.5;
    if (r() < 0.2) delete meta.length;
    if (r() < 0.1) meta.length = String(meta.length ?? 0);
    doc.metadata = meta;
  } else if (m < 0.85) doc.metadata = 'not an object';
  if (file === 1 && r() < 0.2) doc.attributes = r() < 0.8 ? { inline__score: [[0, 1, Math.round(r() * 100) / 100]], misc__char_length_v1__length: [[0, 1, 7]] } : [1, 2];
  return doc;
}

/** Irregular attribute values: scalars, strings, nested objects, odd arrays, and keys shadowing `misc`'s. */
function oddAttributes(r: () => number, docLen: number): Record<string, unknown> {
  const a: Record<string, unknown> = {};
  const pick = r();
  if (pick < 0.55) a.odd__score = Math.round(r() * 1000) / 1000;
  else if (pick < 0.65) a.odd__score = r() < 0.5;
  else if (pick < 0.75) a.odd__score = ['low', 'mid', 'high'][Math.floor(r() * 3)];
  else if (pick < 0.8) a.odd__score = null;
  else if (pick < 0.9) a.odd__score = [[0, docLen, Math.round(r() * 100) / 100]];
  const shape = r();
  if (shape < 0.5) a.odd__spans = [[0, Math.min(3, docLen), 0.7], [Math.min(4, docLen), Math.min(9, docLen), 0.2]];
  else if (shape < 0.6) a.odd__spans = [[0, 2]];
  else if (shape < 0.65) a.odd__spans = [[0, 4, 0.9, 'extra']];
  else if (shape < 0.7) a.odd__spans = [1, 2, 3];
  else if (shape < 0.75) a.odd__spans = [];
  else if (shape < 0.8) a.odd__spans = 'x';
  if (r() < 0.6) a.nest = { a: Math.round(r() * 10), b: r() < 0.5 ? [[0, 1, r()]] : 'text', c: { d: 1 } };
  if (r() < 0.3) a.misc__char_length_v1__length = [[0, docLen, Math.floor(r() * 300)]];
  return a;
}

/** Writes the dataset under `root` and tags it; returns every document. */
export async function makeDataset(root: string, seed = 7): Promise<Record<string, unknown>[]> {
  const r = rng(seed);
  const pool = sentences();
  const zstd = require('zstd-napi') as typeof ZstdNapi;
  const all: Record<string, unknown>[] = [];
  Object.entries(FILES).forEach(([path, count], f) => {
    const docs = Array.from({ length: count }, (_, i) => makeDoc(r, f, i, pool));
    all.push(...docs);
    const abs = join(root, path);
    if (path.endsWith('.zst')) {
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, zstd.compress(Buffer.from(docs.map((d) => JSON.stringify(d)).join('\n') + '\n')));
    } else writeJsonl(abs, docs);
    if (!path.endsWith('.zst')) {
      const rows = docs.map((d) => ({ id: d.id, attributes: oddAttributes(r, [...String(d.text)].length) }));
      writeJsonl(join(root, 'attributes', ODD_SET, path.slice('documents/'.length)), rows);
    }
  });
  await runTag({
    documents: Object.keys(FILES),
    taggers: [
      { name: 'gopher_v1', experiment: 'gopher' },
      { name: 'c4_v2', experiment: 'c4' },
      { name: 'pii_regex_v2', experiment: 'pii' },
      { name: 'char_length_v1', experiment: 'misc' },
      { name: 'whitespace_tokenizer_v1', experiment: 'misc' },
      { name: 'random_number_v1', experiment: 'misc' },
    ],
    cwd: root,
    processes: 1,
  });
  return all;
}

/**
 * The dataset, tagged and indexed once for a describe block, with an engine open on it; closed and removed after.
 * `docs()` is every document written, `engine()` the open PreviewEngine (both valid inside tests).
 */
export function indexedDataset(prefix: string): { root: string; docs: () => Record<string, unknown>[]; engine: () => PreviewEngine } {
  const { dir: root, cleanup } = tempDir(prefix);
  let engine: PreviewEngine | undefined;
  let docs: Record<string, unknown>[] = [];
  beforeAll(async () => {
    docs = await makeDataset(root);
    await buildIndex(root);
    engine = PreviewEngine.open(root);
  }, 120_000);
  afterAll(() => {
    engine?.close();
    cleanup();
  });
  return { root, docs: () => docs, engine: () => engine as PreviewEngine };
}
