// Pass 2: one bucket at a time, sort its (band key, doc) records and union runs of equal keys; oversized buckets are split by key first.
import { join } from 'node:path';
import { rmSync } from 'node:fs';
import { AssayError } from '../../errors.js';
import { readRecords, RecordFiles, RECORD } from './spill.js';
import type { UnionFind } from './union-find.js';

/** In-memory cost of one record while sorting: the 12 raw bytes plus three u32 columns and their scratch copies. */
export const BYTES_PER_RECORD_IN_MEMORY = RECORD + 24;

export interface BucketStats {
  /** Documents that shared this bucket's band with an earlier document of the same run (DataTrove's chain pairs). */
  pairs: number;
  /** Unions that joined two separate clusters. */
  merges: number;
  partitions: number;
}

/** LSD radix sort (16-bit digits) of records by their 64-bit key; returns the sorted columns. */
export function sortRecords(rec: Uint32Array): { lo: Uint32Array; hi: Uint32Array; doc: Uint32Array } {
  const n = rec.length / 3;
  let lo = new Uint32Array(n), hi = new Uint32Array(n), doc = new Uint32Array(n);
  for (let i = 0, j = 0; i < n; i++, j += 3) {
    lo[i] = rec[j] as number;
    hi[i] = rec[j + 1] as number;
    doc[i] = rec[j + 2] as number;
  }
  let lo2 = new Uint32Array(n), hi2 = new Uint32Array(n), doc2 = new Uint32Array(n);
  const count = new Uint32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const src = pass < 2 ? lo : hi;
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const d = (((src[i] as number) >>> shift) & 0xffff) + 1;
      count[d] = (count[d] as number) + 1;
    }
    for (let d = 0; d < 65536; d++) count[d + 1] = (count[d + 1] as number) + (count[d] as number);
    for (let i = 0; i < n; i++) {
      const d = ((src[i] as number) >>> shift) & 0xffff;
      const at = count[d] as number;
      count[d] = at + 1;
      lo2[at] = lo[i] as number;
      hi2[at] = hi[i] as number;
      doc2[at] = doc[i] as number;
    }
    [lo, lo2] = [lo2, lo];
    [hi, hi2] = [hi2, hi];
    [doc, doc2] = [doc2, doc];
  }
  return { lo, hi, doc };
}

/** Unions each run of equal keys; the sort is stable over document order, so pairs chain in ascending index. */
export function unionEqualKeys(rec: Uint32Array, uf: UnionFind, stats: BucketStats): void {
  const { lo, hi, doc } = sortRecords(rec);
  for (let i = 1; i < lo.length; i++) {
    if (lo[i] === lo[i - 1] && hi[i] === hi[i - 1]) {
      stats.pairs++;
      if (uf.union(doc[i - 1] as number, doc[i] as number)) stats.merges++;
    }
  }
}

/**
 * Clusters one bucket file. If sorting it at once would exceed `memoryBytes`, its records are first
 * split by key into partition files (equal keys land together), which are then sorted one at a time.
 */
export function clusterBucket(path: string, records: number, memoryBytes: number, uf: UnionFind, signal?: AbortSignal): BucketStats {
  const stats: BucketStats = { pairs: 0, merges: 0, partitions: 1 };
  const parts = Math.max(1, Math.ceil((records * BYTES_PER_RECORD_IN_MEMORY) / memoryBytes));
  if (parts === 1) {
    const all = new Uint32Array(records * 3);
    let at = 0;
    for (const chunk of readRecords(path)) {
      all.set(chunk, at);
      at += chunk.length;
    }
    if (at !== all.length) throw new AssayError('IO', `MinHash spill file has ${at / 3} records, expected ${records}`, { file: path });
    unionEqualKeys(all, uf, stats);
    return stats;
  }
  stats.partitions = parts;
  const partPaths = Array.from({ length: parts }, (_, i) => join(`${path}.part${i}`));
  const files = new RecordFiles(partPaths);
  try {
    for (const chunk of readRecords(path)) {
      for (let j = 0; j < chunk.length; j += 3) {
        const hi = chunk[j + 1] as number;
        files.add(hi % parts, chunk[j] as number, hi, chunk[j + 2] as number);
      }
    }
    files.close();
  } catch (e) {
    files.abandon();
    throw e;
  }
  for (let i = 0; i < parts; i++) {
    if (signal?.aborted) throw new AssayError('CANCELLED', 'minhash cancelled');
    const sub = clusterBucket(partPaths[i] as string, files.counts[i] as number, Number.MAX_SAFE_INTEGER, uf);
    stats.pairs += sub.pairs;
    stats.merges += sub.merges;
    rmSync(partPaths[i] as string, { force: true });
  }
  return stats;
}
