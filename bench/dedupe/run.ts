// bench/dedupe: paragraph dedupe MB/s per core vs the I/O floor, and MinHash signature MB/s per core, in one run.
import { DATA_DIR, numberArg, runMeasured, scaled } from '../args.js';
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dedupeConfig } from '../../shared/dedupe/schema.js';
import { runDedupe } from '../../workers/engine/dedupe/index.js';
import { ensureCorpus } from '../mix/corpus.js';
import { floorSerial } from '../mix/floor.js';
import { corpusTexts, measureMinhash, proseTexts, type MinhashResult } from './minhash.js';

const ROOT = join(DATA_DIR, 'mix');
const WORK = join(DATA_DIR, 'dedupe');
const arg = numberArg;
const FILES_USED = arg('files-used', 2);
type Result = { sec: number; bytes: number };

/** The first files of the bench corpus, copied under a fresh `documents/` so outputs land beside them. */
function stage(): string[] {
  const info = ensureCorpus(ROOT, scaled(200, 4), 8);
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
    // Signatures only, on texts parsed before timing: `minhash-<sha1|xxhash>-<corpus|prose>`.
    const [, hash, source] = kind.split('-') as [string, 'sha1' | 'xxhash', 'corpus' | 'prose'];
    const texts = source === 'prose' ? proseTexts() : await corpusTexts(files[0] as string);
    return measureMinhash(texts, hash, source === 'corpus' && hash === 'sha1');
  }
  throw new Error(`unknown measurement ${kind}`);
}

function inFreshProcess<R extends Result = Result>(kind: string): R {
  const self = fileURLToPath(import.meta.url);
  const node = [process.execPath, '--import', 'tsx', self, '--measure', kind, '--files-used', String(FILES_USED)];
  return runMeasured<R>(node, kind);
}

const mbps = (r: Result): number => r.bytes / 1e6 / r.sec;
const m = process.argv.indexOf('--measure');
if (m >= 0) {
  process.stdout.write(JSON.stringify(await measure(process.argv[m + 1] as string)) + '\n');
} else {
  const floor = inFreshProcess('floor');
  const para = inFreshProcess('paragraphs');
  const sha1 = inFreshProcess<MinhashResult>('minhash-sha1-corpus');
  const xxh = inFreshProcess<MinhashResult>('minhash-xxhash-corpus');
  const proseSha1 = inFreshProcess<MinhashResult>('minhash-sha1-prose');
  const proseXxh = inFreshProcess<MinhashResult>('minhash-xxhash-prose');
  const perMb = (ms: number, r: Result): string => (ms / (r.bytes / 1e6)).toFixed(1).padStart(5);
  const gen = sha1.general ?? { simplify: NaN, tokenize: NaN };
  const onePass = (r: MinhashResult): string => `${((100 * r.fastBytes) / r.bytes).toFixed(0)} %`;
  process.stdout.write(
    [
      `bench/dedupe — ${(para.bytes / 1e6).toFixed(0)} MB uncompressed (${FILES_USED} gzip files of the bench corpus), one pinned core`,
      `  I/O floor (gunzip → parse → stringify → gzip-6)      ${mbps(floor).toFixed(1).padStart(6)} MB/s`,
      `  paragraph dedupe (bloom filter, exact paragraphs)    ${mbps(para).toFixed(1).padStart(6)} MB/s`,
      `  paragraph dedupe ÷ floor                             ${(mbps(para) / mbps(floor)).toFixed(2)}   (target ≥ 0.5)`,
      `MinHash signatures, text only (FineWeb config: 5-grams, 14 × 8 hashes), ${(sha1.bytes / 1e6).toFixed(0)} MB of the first file`,
      `  sha1-64 (FineWeb)                                    ${mbps(sha1).toFixed(1).padStart(6)} MB/s   (target ≥ 20)`,
      `  xxhash-64 (DataTrove default)                        ${mbps(xxh).toFixed(1).padStart(6)} MB/s`,
      `  sha1 ÷ I/O floor                                     ${(mbps(sha1) / mbps(floor)).toFixed(2)}`,
      `  per stage, ms per MB of text (${onePass(sha1)} of bytes on the one-pass word path):`,
      `    words: simplify + tokenize in one pass             ${perMb(sha1.stages.words, sha1)}`,
      `      (general path: simplify ${perMb(gen.simplify, sha1).trim()} + tokenize ${perMb(gen.tokenize, sha1).trim()})`,
      `    shingle hashes: sha1 / xxhash-64                   ${perMb(sha1.stages.hash, sha1)} / ${perMb(xxh.stages.hash, xxh).trim()}`,
      `    signature (112 permutations)                       ${perMb(sha1.stages.sign, sha1)}`,
      `English prose (nlp-corpus, ${(proseSha1.bytes / 1e6).toFixed(1)} MB, ${onePass(proseSha1)} of bytes on the one-pass word path)`,
      `  sha1-64 / xxhash-64                                  ${mbps(proseSha1).toFixed(1).padStart(6)} / ${mbps(proseXxh).toFixed(1)} MB/s`,
      `    per stage, ms/MB: words ${perMb(proseSha1.stages.words, proseSha1).trim()}, sha1 ${perMb(proseSha1.stages.hash, proseSha1).trim()}, signature ${perMb(proseSha1.stages.sign, proseSha1).trim()}`,
    ].join('\n') + '\n',
  );
}
