// bench/preview/locate.ts: `locate` by id and by url against a real mix ledger of 10^6 documents (target ≤ 50 ms each).
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DATA_DIR, numberArg, scaled } from '../args.js';
import { locate } from '../../workers/engine/ledger/locate.js';
import { ledgerPathFor, openLedger } from '../../workers/engine/ledger/schema.js';
import { parseMixerConfig } from '../../workers/engine/mix/config.js';
import { runMix } from '../../workers/engine/mix/mixer.js';
import { rng } from '../../workers/engine/testing.js';

const DOCS = numberArg('docs', scaled(1_000_000, 2_000));
const FILES = numberArg('files', scaled(20, 2));
const QUERIES = numberArg('queries', scaled(200, 10));
const ROOT = join(DATA_DIR, `locate-${DOCS}`);
const WORDS = 'the of and to in a is that for it as was with be by on not corpus token filter quality river mountain library history'.split(' ');
const url = (f: number, i: number): string => `https://site${(f * 7919 + i) % 5000}.example/${f}/${i}.html`;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))] as number;

/** Short documents with a url each, in `FILES` gzip files; a marker makes reruns reuse them. */
function ensureDocuments(): void {
  const marker = join(ROOT, 'documents.json');
  if (existsSync(marker) && (JSON.parse(readFileSync(marker, 'utf8')) as { docs: number }).docs === DOCS) return;
  rmSync(ROOT, { recursive: true, force: true });
  mkdirSync(join(ROOT, 'documents'), { recursive: true });
  const r = rng(5);
  const per = Math.ceil(DOCS / FILES);
  for (let f = 0; f < FILES; f++) {
    const lines: string[] = [];
    for (let i = 0; i < per && f * per + i < DOCS; i++) {
      const words = Array.from({ length: 20 + Math.floor(r() * 40) }, () => WORDS[Math.floor(r() * WORDS.length)]);
      lines.push(JSON.stringify({ id: `d${f}-${i}`, text: words.join(' '), source: r() < 0.5 ? 'cc' : 'books', metadata: { url: url(f, i), lang: r() < 0.9 ? 'en' : 'de' } }));
    }
    writeFileSync(join(ROOT, 'documents', `part-${String(f).padStart(3, '0')}.jsonl.gz`), gzipSync(lines.join('\n') + '\n', { level: 1 }));
  }
  writeFileSync(marker, JSON.stringify({ docs: DOCS }));
}

const RECIPE = `streams:
  - name: locate
    documents: [documents/*.jsonl.gz]
    output: {path: out, min_text_length: 120}
    filter:
      exclude: ["$.metadata[?(@.lang == 'de')]"]
`;

ensureDocuments();
const ledger = ledgerPathFor(join(ROOT, 'out'));
// A ledger an older Assay wrote (another schema version) is mixed again.
const current = existsSync(ledger) && (await openLedger(ledger, 'mix').then(({ db }) => (db.close(), true), () => false));
if (!current) {
  const t = performance.now();
  const s = await runMix(parseMixerConfig(RECIPE, 'locate.yaml'), { cwd: ROOT, processes: 2 });
  const sec = (performance.now() - t) / 1000;
  console.log(`mix with ledger: ${s.streams[0]!.docs.read.toLocaleString('en-US')} documents in ${sec.toFixed(1)} s (2 processes), kept ${s.streams[0]!.docs.kept.toLocaleString('en-US')}`);
}
const size = statSync(ledger).size;
console.log(`ledger: ${(size / 1e6).toFixed(1)} MB = ${(size / DOCS).toFixed(0)} bytes per input document (${DOCS.toLocaleString('en-US')} documents, ids, urls and text hashes indexed)`);

const r = rng(17);
const picks = Array.from({ length: QUERIES }, () => {
  const f = Math.floor(r() * FILES);
  const i = Math.floor(r() * Math.floor(DOCS / FILES));
  return { id: `d${f}-${i}`, url: url(f, i) };
});
for (const kind of ['id', 'url'] as const) {
  const times: number[] = [];
  for (const p of picks) {
    const t = performance.now();
    const found = await locate(ROOT, kind === 'id' ? { id: p.id } : { url: p.url });
    times.push(performance.now() - t);
    if (found.matches.length < 1) throw new Error(`locate --${kind} found nothing for ${p[kind]}`);
  }
  console.log(`locate --${kind} over the workspace (finds the ledger, opens it, looks up, follows shard and tokens), ${QUERIES} lookups: first ${times[0]!.toFixed(1)} ms, p50 ${pct(times, 0.5).toFixed(1)} ms, p95 ${pct(times, 0.95).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (target ≤ 50 ms)`);
}
