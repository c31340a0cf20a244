// MinHash signature throughput and its cost per stage, on the bench corpus's texts or on English prose (nlp-corpus).
import { readFileSync } from 'node:fs';
import { scaled } from '../args.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { MinhashSigner } from '../../workers/engine/dedupe/minhash/signer.js';
import { readJsonRecords } from '../../workers/engine/io/index.js';
import { HeadWordsWriter } from '../../workers/engine/text/head-words.js';
import { simplifyText } from '../../workers/engine/text/simplify.js';
import { splitIntoWords } from '../../workers/engine/text/words.js';

export interface MinhashResult {
  sec: number;
  bytes: number;
  /** Milliseconds summed over documents: words (simplify + tokenize), shingle hashes, signature. */
  stages: { words: number; hash: number; sign: number };
  /** Bytes of documents the one-pass word writer took (the rest went through simplifyText + splitIntoWords). */
  fastBytes: number;
  /** The general path's two stages on the same texts (what a declined document costs), in ms. */
  general?: { simplify: number; tokenize: number };
}

/** FineWeb's MinHash config: word 5-grams, 14 buckets × 8 hashes, 64-bit hashes, HEAD text normalisation. */
const signerFor = (hash_fc: 'sha1' | 'xxhash'): Promise<MinhashSigner> =>
  MinhashSigner.create({ n_grams: 5, num_buckets: 14, hashes_per_bucket: 8, seed: 1, hash_fc, precision: 64, profile: 'head' });

/** Texts of one documents file, parsed before timing starts. */
export async function corpusTexts(file: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const batch of readJsonRecords(file)) for (const r of batch) texts.push(String(r.value.text));
  return texts;
}

/** nlp-corpus's ~9 MB of English sentences (reviews, news, UN documents), 20 sentences to a document. */
export function proseTexts(): string[] {
  const dir = join(dirname(createRequire(import.meta.url).resolve('nlp-corpus')), '../../builds');
  const sentences: string[] = [];
  for (let i = 0; i < scaled(100, 4); i++) sentences.push(...(JSON.parse(readFileSync(join(dir, `doc-${i}.json`), 'utf8')) as string[]));
  const docs: string[] = [];
  for (let i = 0; i < sentences.length; i += 20) docs.push(sentences.slice(i, i + 20).join(i % 40 === 0 ? '\n' : ' '));
  return docs;
}

export async function measureMinhash(texts: readonly string[], hash_fc: 'sha1' | 'xxhash', withGeneral: boolean): Promise<MinhashResult> {
  const signer = await signerFor(hash_fc);
  let bytes = 0;
  for (const t of texts) bytes += Buffer.byteLength(t);
  // Warm-up on the first ~1 MB (the JIT and wasm tier-up, the tokenizer's chunk cache), as any long run amortizes it.
  let warm = 0;
  for (const t of texts) {
    if (warm >= 1e6) break;
    signer.signatureWords(t);
    warm += t.length;
  }
  // The headline number: whole documents, no timers inside the loop.
  const start = performance.now();
  for (const t of texts) signer.signatureWords(t);
  const sec = (performance.now() - start) / 1000;
  const stages = { words: 0, hash: 0, sign: 0 };
  for (const t of texts) {
    const t0 = performance.now();
    const count = signer.prepare(t);
    const t1 = performance.now();
    signer.hash(count);
    const t2 = performance.now();
    if (count > 0) signer.sign(count);
    stages.words += t1 - t0;
    stages.hash += t2 - t1;
    stages.sign += performance.now() - t2;
  }
  const writer = new HeadWordsWriter();
  let fastBytes = 0;
  let out = new Uint8Array(0);
  let starts = new Int32Array(0);
  for (const t of texts) {
    if (out.length < 2 * t.length + 16) [out, starts] = [new Uint8Array(4 * t.length + 16), new Int32Array(2 * t.length + 2)];
    if (writer.write(t, out, starts) >= 0) fastBytes += Buffer.byteLength(t);
  }
  const result: MinhashResult = { sec, bytes, stages, fastBytes };
  if (withGeneral) {
    const t0 = performance.now();
    const simplified = texts.map((t) => simplifyText(t, {}, 'head'));
    const t1 = performance.now();
    for (const s of simplified) splitIntoWords(s);
    result.general = { simplify: t1 - t0, tokenize: performance.now() - t1 };
  }
  return result;
}
