// `runMinhash`: DataTrove's MinHash near-dedup over local Dolma files in one process, with disk-bounded memory.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { MinhashConfig } from '../../../../shared/dedupe/minhash-schema.js';
import { AssayError } from '../../errors.js';
import { discardTemp, expandGlobs, parseCodecName, promoteTemp } from '../../io/index.js';
import { ProgressTracker, type ProgressSink } from '../../jobs/progress.js';
import { checkDocumentDir, dedupeOutputPath } from '../dolma/paths.js';
import { clusterBucket } from './cluster.js';
import { closeSync, openIdFile, signFile } from './sign-pass.js';
import { MinhashSigner } from './signer.js';
import { RecordFiles } from './spill.js';
import { UnionFind } from './union-find.js';
import { writeAttributes, type OutputJob } from './write-pass.js';

export { MinhashSigner, type SignerConfig } from './signer.js';

export interface MinhashRunOptions {
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
}

export interface MinhashFileSummary {
  input: string;
  output: string;
  docs: number;
}

export interface MinhashSummary {
  files: MinhashFileSummary[];
  documents: number;
  /** Documents with at least n_grams tokens (the others cannot be deduplicated). */
  signed: number;
  bytes: number;
  /** Clusters of ≥ 2 documents, and the documents marked duplicate (all members but each cluster's first). */
  clusters: number;
  duplicates: number;
  clusteredDocs: number;
  /** Equal-band matches over all buckets (DataTrove's stage-2 `total_matches`). */
  matches: number;
  /** Most partitions any bucket was split into to fit max_memory_mb (1 = none split). */
  maxPartitions: number;
  elapsedSec: number;
}

const cancelled = (): AssayError => new AssayError('CANCELLED', 'minhash cancelled');

export async function runMinhash(cfg: MinhashConfig, opts: MinhashRunOptions = {}): Promise<MinhashSummary> {
  const started = performance.now();
  const cwd = resolve(opts.cwd ?? process.cwd());
  const { signal } = opts;
  checkDocumentDir(cfg.documents, cfg.document_dir);
  const readCodec = cfg.compression?.input ? parseCodecName(cfg.compression.input, 'compression.input') : undefined;
  const writeCodec = cfg.compression?.output ? parseCodecName(cfg.compression.output, 'compression.output') : readCodec;
  const inputs = (await expandGlobs(cfg.documents, { cwd })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no documents match ${cfg.documents.map((p) => `'${p}'`).join(', ')}`, { field: 'documents' });
  const outputs = inputs.map((input) => dedupeOutputPath(input, cfg.document_dir, cfg.name));
  const signer = await MinhashSigner.create(cfg);

  const workRoot = cfg.work_dir !== undefined ? resolve(cwd, cfg.work_dir) : dirname(outputs[0] as string);
  mkdirSync(workRoot, { recursive: true });
  const work = mkdtempSync(join(workRoot, '.minhash-work-'));
  const published: string[] = [];
  try {
    if (signal?.aborted) throw cancelled();
    let totalBytes = 0;
    for (const input of inputs) totalBytes += (await stat(input)).size;
    const summary: MinhashSummary = { files: [], documents: 0, signed: 0, bytes: 0, clusters: 0, duplicates: 0, clusteredDocs: 0, matches: 0, maxPartitions: 1, elapsedSec: 0 };

    // Pass 1: signatures → band keys spilled per bucket.
    const bucketPaths = Array.from({ length: cfg.num_buckets }, (_, b) => join(work, `bucket_${String(b).padStart(3, '0')}.bin`));
    const buckets = new RecordFiles(bucketPaths);
    const idPath = join(work, 'ids.tsv');
    const idFd = openIdFile(idPath);
    const signTracker = new ProgressTracker('minhash signatures', totalBytes, inputs.length, opts.onProgress);
    try {
      for (const [i, input] of inputs.entries()) {
        if (signal?.aborted) throw cancelled();
        const c = await signFile(input, summary.documents, signer, buckets, idFd, { readCodec, signal, onProgress: (p) => signTracker.add(p) });
        signTracker.add({ files: 1 });
        summary.files.push({ input, output: outputs[i] as string, docs: c.docs });
        summary.documents += c.docs;
        summary.signed += c.signed;
        summary.bytes += c.bytes;
      }
      buckets.close();
    } catch (e) {
      buckets.abandon();
      throw e;
    } finally {
      closeSync(idFd);
    }
    signTracker.emit();

    // Pass 2: one bucket at a time into the union-find.
    const uf = new UnionFind(summary.documents);
    const memory = cfg.max_memory_mb * 1024 * 1024;
    const clusterTracker = new ProgressTracker('minhash buckets', cfg.num_buckets, cfg.num_buckets, opts.onProgress);
    for (const [b, path] of bucketPaths.entries()) {
      if (signal?.aborted) throw cancelled();
      const s = clusterBucket(path, buckets.counts[b] as number, memory, uf, signal);
      summary.matches += s.pairs;
      summary.maxPartitions = Math.max(summary.maxPartitions, s.partitions);
      rmSync(path, { force: true });
      clusterTracker.add({ compressedBytes: 1, files: 1 });
    }
    clusterTracker.emit();

    // Pass 3: attributes, published only when every file is complete.
    const jobs: OutputJob[] = summary.files.map((f) => ({ output: f.output, docs: f.docs, ...(writeCodec ? { writeCodec } : {}) }));
    published.push(...outputs);
    const w = await writeAttributes(idPath, jobs, cfg.name, uf, signal);
    if (signal?.aborted) throw cancelled();
    for (const out of outputs) await promoteTemp(out);
    published.length = 0;
    Object.assign(summary, w, { elapsedSec: (performance.now() - started) / 1000 });
    return summary;
  } catch (e) {
    for (const out of published) await discardTemp(out);
    if (signal?.aborted && !(e instanceof AssayError && e.code === 'CANCELLED')) throw cancelled();
    throw e;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
