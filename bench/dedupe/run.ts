// bench/dedupe: paragraph dedupe MB/s per core vs the I/O floor, and MinHash signature MB/s per core, in one run.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dedupeConfig } from '../../shared/dedupe/schema.js';
import { runDedupe } from '../../workers/engine/dedupe/index.js';
import { MinhashSigner } from '../../workers/engine/dedupe/minhash/signer.js';
import { readJsonRecords } from '../../workers/engine/io/index.js';
import { ensureCorpus } from '../mix/corpus.js';
import { floorSerial } from '../mix/floor.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../.data/mix');
const WORK = resolve(fileURLToPath(import.meta.url), '../../.data/dedupe');
const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const FILES_USED = arg('files-used', 2);
type Result = { sec: number; bytes: number };

/** The first files of the bench corpus, copied under a fresh `documents/` so outputs land beside them. */
function stage(): string[] {
  const info = ensureCorpus(ROOT, 200, 8);
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(join(WORK, 'documents'), { recursive: true });
  return info.files.slice(0, FILES_USED).map((f) => {
    const dst = join(WORK, 'documents', basename(f));
    cpSync(f, dst);
    return dst;
  });
}

async function measure(kind: string): Promise<Result> {
  const files = stage();
  const t = performance.now();
  if (kind === 'floor') {
    mkdirSync(join(WORK, 'floor'), { recursive: true });
    const bytes = await floorSerial(files, join(WORK, 'floor'));
    return { sec: (performance.now() - t) / 1000, bytes };
  }
  if (kind === 'paragraphs') {
    const cfg = dedupeConfig.parse({
      documents: files,
      dedupe: { name: 'dedupe_paragraphs', paragraphs: { attribute_name: 'bff_duplicate_paragraph_spans' } },
      bloom_filter: { file: join(WORK, 'bloom.bin'), read_only: false, estimated_doc_count: 2_000_000, desired_false_positive_rate: 1e-4 },
    });
    const s = await runDedupe(cfg, { cwd: WORK });
    return { sec: (performance.now() - t) / 1000, bytes: s.bytes };
  }
  if (kind.startsWith('minhash-')) {
    // Signatures only (FineWeb's config: 5-grams, 14 × 8), on texts already parsed from the first file.
    const texts: string[] = [];
    for await (const batch of readJsonRecords(files[0] as string)) for (const r of batch) texts.push(String(r.value.text));
    const hash_fc = kind === 'minhash-sha1' ? 'sha1' : 'xxhash';
    const signer = await MinhashSigner.create({ n_grams: 5, num_buckets: 14, hashes_per_bucket: 8, seed: 1, hash_fc, precision: 64, profile: 'head' });
    const start = performance.now();
    let bytes = 0;
    for (const t of texts) {
      signer.signature(t);
      bytes += Buffer.byteLength(t);
    }
    return { sec: (performance.now() - start) / 1000, bytes };
  }
  throw new Error(`unknown measurement ${kind}`);
}

function inFreshProcess(kind: string): Result {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, '--measure', kind, '--files-used', String(FILES_USED)];
  const pinned = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const [cmd, ...args] = pinned ? ['taskset', '-c', '0', ...node] : node;
  const r = spawnSync(cmd as string, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${kind} failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as Result;
}

const mbps = (r: Result): number => r.bytes / 1e6 / r.sec;
const m = process.argv.indexOf('--measure');
if (m >= 0) {
  process.stdout.write(JSON.stringify(await measure(process.argv[m + 1] as string)) + '\n');
} else {
  const floor = inFreshProcess('floor');
  const para = inFreshProcess('paragraphs');
  const sha1 = inFreshProcess('minhash-sha1');
  const xxh = inFreshProcess('minhash-xxhash');
  process.stdout.write(
    [
      `bench/dedupe — ${(para.bytes / 1e6).toFixed(0)} MB uncompressed (${FILES_USED} gzip files of the bench corpus), one pinned core`,
      `  I/O floor (gunzip → parse → stringify → gzip-6)      ${mbps(floor).toFixed(1).padStart(6)} MB/s`,
      `  paragraph dedupe (bloom filter, exact paragraphs)    ${mbps(para).toFixed(1).padStart(6)} MB/s`,
      `  paragraph dedupe ÷ floor                             ${(mbps(para) / mbps(floor)).toFixed(2)}   (target ≥ 0.5)`,
      `  MinHash signatures, sha1-64 (FineWeb), text only     ${mbps(sha1).toFixed(1).padStart(6)} MB/s   (target ≥ 20)`,
      `  MinHash signatures, xxhash-64 (DataTrove default)    ${mbps(xxh).toFixed(1).padStart(6)} MB/s`,
    ].join('\n') + '\n',
  );
}
