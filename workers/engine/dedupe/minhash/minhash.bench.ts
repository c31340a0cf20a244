// Signature throughput on one core over generated English text: `npx tsx workers/engine/dedupe/minhash/minhash.bench.ts [MB]`.
import { MinhashSigner, type SignerConfig } from './signer.js';
import { Rng } from './test-corpus.js';

const targetMb = Number(process.argv[2] ?? 20);
const WORDS = ('the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were ' +
  'her she there people would their about time could other know because between through during important government development ' +
  'information system research however children water market country, number. world! "quality" years — 1999 data.').split(' ');

const rng = new Rng(99);
const docs: string[] = [];
let bytes = 0;
while (bytes < targetMb * 1e6) {
  let d = '';
  for (let i = 0, n = 150 + rng.int(800); i < n; i++) d += (WORDS[rng.int(WORDS.length)] as string) + (rng.int(15) === 0 ? '.\n' : ' ');
  docs.push(d);
  bytes += Buffer.byteLength(d);
}
const base: SignerConfig = { n_grams: 5, num_buckets: 14, hashes_per_bucket: 8, seed: 1, hash_fc: 'sha1', precision: 64, profile: 'head' };
for (const cfg of [base, { ...base, hash_fc: 'xxhash' as const }, { ...base, profile: 'fineweb-2024' as const }]) {
  const signer = await MinhashSigner.create(cfg);
  const t0 = performance.now();
  for (const d of docs) signer.signatureWords(d);
  const sec = (performance.now() - t0) / 1000;
  console.log(`${cfg.hash_fc}-${cfg.precision} ${cfg.profile}: ${(bytes / 1e6 / sec).toFixed(1)} MB/s (${(bytes / 1e6).toFixed(1)} MB, ${docs.length} docs)`);
}
