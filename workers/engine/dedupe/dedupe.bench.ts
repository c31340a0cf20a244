// Paragraph-dedupe throughput on generated text: `npx tsx workers/engine/dedupe/dedupe.bench.ts [MB] [ngram]`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dedupeConfig } from '../../../shared/dedupe/schema.js';
import { tempDir } from '../testing.js';
import { runDedupe } from './index.js';

// ASSAY_BENCH_SMOKE=1 (the README-commands test) caps the size; the numbers then mean nothing.
const targetMb = Math.min(Number(process.argv[2] ?? 50), process.env.ASSAY_BENCH_SMOKE === '1' ? 1 : Infinity);
const ngram = process.argv[3] === 'ngram';
const WORDS = 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there'.split(' ');

/** A deterministic corpus: ~8 paragraphs per doc, a quarter of them repeated from earlier docs. */
function corpus(bytes: number): { text: string; paragraphs: number } {
  let seed = 42;
  const rnd = (n: number): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % n;
  };
  const pool: string[] = [];
  const lines: string[] = [];
  let size = 0;
  let paragraphs = 0;
  for (let id = 0; size < bytes; id++) {
    const paras: string[] = [];
    for (let p = 0; p < 8; p++, paragraphs++) {
      if (pool.length > 100 && rnd(4) === 0) paras.push(pool[rnd(pool.length)] as string);
      else {
        const words = Array.from({ length: 20 + rnd(60) }, () => WORDS[rnd(WORDS.length)] as string);
        const para = words.join(' ') + '.';
        if (pool.length < 10000) pool.push(para);
        paras.push(para);
      }
    }
    const line = JSON.stringify({ id: String(id), text: paras.join('\n'), source: 'bench' });
    lines.push(line);
    size += line.length + 1;
  }
  return { text: lines.join('\n') + '\n', paragraphs };
}

const t = tempDir('assay-dedupe-bench-');
try {
  const { text, paragraphs } = corpus(targetMb * 1e6);
  mkdirSync(join(t.dir, 'documents'), { recursive: true });
  writeFileSync(join(t.dir, 'documents/bench.jsonl'), text);
  const keys = ngram ? paragraphs * 20 : paragraphs;
  const cfg = dedupeConfig.parse({
    documents: ['documents/*.jsonl'],
    dedupe: { name: 'bench', paragraphs: { attribute_name: 'dup', ...(ngram ? { by_ngram: { ngram_length: 13, stride: 3, overlap_threshold: 0.5 } } : {}) } },
    bloom_filter: { file: 'bloom.bin', read_only: false, estimated_doc_count: keys, desired_false_positive_rate: 1e-4 },
  });
  const s = await runDedupe(cfg, { cwd: t.dir });
  const mb = s.bytes / 1e6;
  console.log(
    `${ngram ? 'n-gram (13/3)' : 'exact'} paragraph dedupe: ${mb.toFixed(1)} MB, ${s.documents} docs, ${paragraphs} paragraphs, ${s.spans} spans in ${s.elapsedSec.toFixed(2)} s = ${(mb / s.elapsedSec).toFixed(1)} MB/s; ` +
      `k=${s.bloom.k}, ${(s.bloom.sizeBytes / 2 ** 20).toFixed(1)} MiB, fill ${(s.bloom.fillRatio * 100).toFixed(1)}%`,
  );
} finally {
  t.cleanup();
}
