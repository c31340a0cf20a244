// DataTrove conformance: the MinHash `kind: "dedup"` cases (test_minhash.py), run on an in-memory pipeline.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { XXHashAPI } from 'xxhash-wasm';
import { bandKeys } from './bands.js';
import { unionEqualKeys, type BucketStats } from './cluster.js';
import { loadXxhashApi, MinhashSigner, type SignerConfig } from './signer.js';
import { UnionFind } from './union-find.js';

export type CaseResult = { status: 'pass' } | { status: 'fail'; message: string } | { status: 'skip'; reason: string };

// Loaded at import so runMinhashCase can stay synchronous (the lead's conformance runner calls it per case).
const xxh: XXHashAPI = await loadXxhashApi();
const DATA = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../../../../shared/conformance/datatrove');
const HEAD: SignerConfig = { n_grams: 5, num_buckets: 14, hashes_per_bucket: 8, seed: 1, hash_fc: 'xxhash', precision: 64, profile: 'head' };

const lorem = (c: Record<string, unknown>): string[] => Array.from(readFileSync(resolve(DATA, String(c.text_file ?? 'data/minhash_lorem_ipsum.txt')), 'utf8'));
const fail = (message: string): CaseResult => ({ status: 'fail', message });

/** Band keys of every document, per bucket, as spill records (key lo, key hi, doc). */
export function bucketRecords(texts: readonly string[], cfg: SignerConfig): Uint32Array[] {
  const signer = new MinhashSigner(cfg, xxh);
  const keys = new Uint32Array(cfg.num_buckets * 2);
  const recs = Array.from({ length: cfg.num_buckets }, () => [] as number[]);
  texts.forEach((t, doc) => {
    const w = signer.signatureWords(t);
    if (w === null) return;
    bandKeys(w, cfg.num_buckets, cfg.hashes_per_bucket, keys);
    recs.forEach((r, b) => r.push(keys[2 * b] as number, keys[2 * b + 1] as number, doc));
  });
  return recs.map((r) => Uint32Array.from(r));
}

/** The whole pipeline in memory: the union-find after every bucket, and the match count. */
export function clusterTexts(texts: readonly string[], cfg: SignerConfig): { uf: UnionFind; stats: BucketStats } {
  const uf = new UnionFind(texts.length);
  const stats: BucketStats = { pairs: 0, merges: 0, partitions: 1 };
  for (const rec of bucketRecords(texts, cfg)) unionEqualKeys(rec, uf, stats);
  return { uf, stats };
}

function clustersCase(c: Record<string, unknown>): CaseResult {
  const L = lorem(c);
  const clusters = c.clusters as number[][];
  const out = c.expected_outcome as { removed_per_cluster: number[]; with_save_cluster_id_and_size: { distinct_minhash_cluster_id_values_among_kept: number } };
  const texts: string[] = [];
  const truth: number[] = [];
  clusters.forEach((cl, ci) => cl.forEach((x) => (texts.push(L.slice(x, x + 400).join('')), truth.push(ci))));
  for (const hc of (c.params as { hash_config: { hash_fc: 'sha1' | 'xxhash'; precision: 32 | 64 }[] }).hash_config) {
    const tag = `${hc.hash_fc}/${hc.precision}`;
    const { uf } = clusterTexts(texts, { ...HEAD, ...hc });
    const removed = clusters.map(() => 0);
    const ids = new Set<number>();
    for (let d = 0; d < texts.length; d++) {
      const root = uf.find(d);
      if (truth[root] !== truth[d]) return fail(`${tag}: doc ${d} (cluster ${truth[d]}) joined doc ${root} (cluster ${truth[root]})`);
      if (root !== d) removed[truth[d] as number] = (removed[truth[d] as number] as number) + 1;
      else {
        const size = uf.size[d] as number;
        const want = (clusters[truth[d] as number] as number[]).length;
        if (size !== want) return fail(`${tag}: kept doc ${d} has cluster size ${size}, expected ${want}`);
        ids.add(size > 1 ? d : -1);
      }
    }
    if (removed.join() !== out.removed_per_cluster.join()) return fail(`${tag}: removed per cluster ${removed.join()} ≠ ${out.removed_per_cluster.join()}`);
    const want = out.with_save_cluster_id_and_size.distinct_minhash_cluster_id_values_among_kept;
    if (ids.size !== want) return fail(`${tag}: ${ids.size} distinct cluster ids among kept docs, expected ${want}`);
  }
  return { status: 'pass' };
}

function similarityCase(c: Record<string, unknown>): CaseResult {
  const L = lorem(c);
  const signer = new MinhashSigner(HEAD, xxh);
  const base = Array.from(signer.signature(L.join('')) ?? []);
  if (base.length !== 14 * 8) return fail(`signature has ${base.length} values, expected 112`);
  const again = Array.from(signer.signature(L.join('')) ?? []);
  if (again.join() !== base.join()) return fail('signature is not deterministic');
  for (let pct = 0; pct < 100; pct += 5) {
    const dec = pct / 100;
    const endp = Math.floor(L.length * dec);
    const text = L.slice(0, endp).join('') + L.slice(endp + 1).reverse().join('');
    const sig = signer.signature(text);
    const eq = sig === null ? 0 : base.filter((v, j) => v === sig[j]).length / base.length;
    if (!(Math.abs(eq - dec) < 0.21)) return fail(`at ${pct}%: fraction of equal hashes ${eq.toFixed(3)}`);
  }
  return { status: 'pass' };
}

/** DataTrove's stage-1 file: per bucket, records `<8Q I>` (hashes, doc) sorted by (h1..h8, doc). */
function sigfileCase(c: Record<string, unknown>): CaseResult {
  const L = lorem(c);
  const texts = Array.from({ length: 100 }, (_, i) => `sample ${i}, ${L.filter((_, k) => k % 10 === i % 10 && k >= i).join('')}`);
  const signer = new MinhashSigner(HEAD, xxh);
  const sigs = texts.map((t) => Array.from(signer.signature(t) ?? []));
  for (let b = 0; b < 14; b++) {
    const recs = sigs.map((s, doc) => ({ h: s.slice(b * 8, b * 8 + 8), doc })).filter((r) => r.h.length === 8);
    recs.sort((x, y) => cmpTuple([...x.h, BigInt(x.doc)], [...y.h, BigInt(y.doc)]));
    const file = Buffer.alloc(recs.length * 68);
    recs.forEach((r, i) => {
      r.h.forEach((h, j) => file.writeBigUInt64LE(h, i * 68 + j * 8));
      file.writeUInt32LE(r.doc, i * 68 + 64);
    });
    if (file.length / 68 !== 100) return fail(`bucket ${b}: ${file.length / 68} records, expected 100`);
    const docs = new Set<number>();
    for (let i = 0; i < 100; i++) {
      docs.add(file.readUInt32LE(i * 68 + 64));
      if (i > 0) {
        const prev = Array.from({ length: 8 }, (_, j) => file.readBigUInt64LE((i - 1) * 68 + j * 8));
        const cur = Array.from({ length: 8 }, (_, j) => file.readBigUInt64LE(i * 68 + j * 8));
        if (cmpTuple(prev, cur) > 0) return fail(`bucket ${b}: record ${i} is out of order`);
      }
    }
    if (docs.size !== 100 || Math.max(...docs) !== 99) return fail(`bucket ${b}: doc ids are not a permutation of 0..99`);
  }
  return { status: 'pass' };
}

const cmpTuple = (x: readonly bigint[], y: readonly bigint[]): number => {
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return (x[i] as bigint) < (y[i] as bigint) ? -1 : 1;
  return 0;
};

/** Splitting a bucket by key across workers must find exactly the matches of one worker (Assay: partitions). */
function multiworkerCase(c: Record<string, unknown>): CaseResult {
  const L = lorem(c);
  const texts: string[] = [];
  for (let x = 0; x < L.length - 200; x += 10) texts.push(L.slice(x, x + 200).join(''));
  const records = bucketRecords(texts, HEAD);
  const whole = new UnionFind(texts.length);
  const split = new UnionFind(texts.length);
  for (const [b, rec] of records.entries()) {
    const one: BucketStats = { pairs: 0, merges: 0, partitions: 1 };
    unionEqualKeys(rec, whole, one);
    const ten: BucketStats = { pairs: 0, merges: 0, partitions: 10 };
    const parts = Array.from({ length: 10 }, () => [] as number[]);
    for (let i = 0; i < rec.length; i += 3) parts[(rec[i + 1] as number) % 10]?.push(rec[i] as number, rec[i + 1] as number, rec[i + 2] as number);
    for (const p of parts) unionEqualKeys(Uint32Array.from(p), split, ten);
    if (one.pairs !== ten.pairs) return fail(`bucket ${b}: ${ten.pairs} matches over 10 partitions, ${one.pairs} in one`);
  }
  for (let d = 0; d < texts.length; d++) if (whole.find(d) !== split.find(d)) return fail(`doc ${d}: different cluster when buckets are partitioned`);
  return { status: 'pass' };
}

const RUNNERS: Record<string, (c: Record<string, unknown>) => CaseResult> = {
  minhash_clusters_1: clustersCase,
  minhash_similarity_1: similarityCase,
  minhash_sigfile_1: sigfileCase,
  minhash_multiworker_s2_1: multiworkerCase,
};

/** The result of a MinHash dedup case, or null for any other case. */
export function runMinhashCase(c: Record<string, unknown>): CaseResult | null {
  if (c.kind !== 'dedup' || typeof c.id !== 'string' || !c.id.startsWith('minhash_')) return null;
  if (c.id === 'minhash_skip_sigs_1') {
    return { status: 'skip', reason: 'skip_existing_sigs resumes from DataTrove stage-1 sig files; assay minhash runs all passes in one process and keeps no sig files' };
  }
  const run = RUNNERS[c.id];
  if (run === undefined) return { status: 'skip', reason: `no runner for MinHash case ${c.id}` };
  try {
    return run(c);
  } catch (e) {
    return fail(`threw: ${(e as Error).message}`);
  }
}
