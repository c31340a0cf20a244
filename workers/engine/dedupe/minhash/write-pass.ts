// Pass 3: one attribute row per document row — cluster id, size, duplicate flag and the kept document's id.
import { AssayError } from '../../errors.js';
import { AtomicWriter, readLineBatches, type Codec } from '../../io/index.js';
import type { UnionFind } from './union-find.js';

export interface OutputJob {
  output: string;
  docs: number;
  writeCodec?: Codec;
}

export interface WriteCounts {
  clusters: number;
  duplicates: number;
  clusteredDocs: number;
  /** Each output as stored (job order), for the run manifest. */
  written: { path: string; size: number; sha256: string }[];
}

/**
 * Rows are Dolma's `{"attributes":{…},"id":…}`. A document in a cluster of n ≥ 2 gets
 * `<name>__minhash_cluster_id` `[[0,len,cid]]` and `<name>__minhash_cluster_size` `[[0,len,n]]`; every member
 * but the kept one (the cluster's first document in file order) also gets `<name>__minhash_duplicate`
 * `[[0,len,1]]` and `<name>__minhash_duplicate_of` = the kept document's id. Others get `{}`. Cluster ids
 * are 0, 1, 2… in order of each cluster's first document (DataTrove's order of first encounter).
 * Every output is committed under its temporary name; the caller publishes them all or discards them all.
 */
export async function writeAttributes(idFile: string, jobs: readonly OutputJob[], name: string, uf: UnionFind, signal?: AbortSignal): Promise<WriteCounts> {
  const counts: WriteCounts = { clusters: 0, duplicates: 0, clusteredDocs: 0, written: [] };
  const keptId = new Map<number, string>();
  const clusterId = new Map<number, number>();
  const remaining = new Map<number, number>();
  const [kId, kSize, kDup, kOf] = ['cluster_id', 'cluster_size', 'duplicate', 'duplicate_of'].map((s) => JSON.stringify(`${name}__minhash_${s}`));
  const lines = readLineBatches(idFile, { signal, batchLines: 4096 })[Symbol.asyncIterator]();
  let pending: string[] = [];
  let doc = 0;
  for (const job of jobs) {
    const writer = await AtomicWriter.open(job.output, { mkdir: true, ...(job.writeCodec ? { codec: job.writeCodec } : {}) });
    try {
      let left = job.docs;
      while (left > 0) {
        if (pending.length === 0) {
          const next = await lines.next();
          if (next.done) throw new AssayError('INTERNAL', 'MinHash id file ended early', { file: idFile });
          pending = next.value.lines;
        }
        const take = pending.splice(0, left);
        left -= take.length;
        let out = '';
        for (const line of take) {
          const tab = line.lastIndexOf('\t');
          const id = line.slice(0, tab);
          const len = line.slice(tab + 1);
          const root = uf.find(doc);
          const size = uf.size[root] as number;
          if (size < 2) out += `{"attributes":{},"id":${id}}\n`;
          else {
            counts.clusteredDocs++;
            let cid: number;
            let extra = '';
            if (root === doc) {
              cid = counts.clusters++;
              keptId.set(root, id);
              clusterId.set(root, cid);
              remaining.set(root, size - 1);
            } else {
              cid = clusterId.get(root) as number;
              counts.duplicates++;
              extra = `,${kDup}:[[0,${len},1]],${kOf}:${JSON.stringify(String(JSON.parse(keptId.get(root) as string)))}`;
              const r = (remaining.get(root) as number) - 1;
              // Forget a cluster once its last member is written, so memory follows open clusters only.
              if (r === 0) [keptId, clusterId, remaining].forEach((m) => m.delete(root));
              else remaining.set(root, r);
            }
            out += `{"attributes":{${kId}:[[0,${len},${cid}]],${kSize}:[[0,${len},${size}]]${extra}},"id":${id}}\n`;
          }
          doc++;
        }
        await writer.write(out);
      }
      if (signal?.aborted) throw new AssayError('CANCELLED', 'minhash cancelled', { file: job.output });
      await writer.commit({ deferRename: true });
      counts.written.push({ path: job.output, size: writer.bytesOut, sha256: writer.sha256 });
    } catch (e) {
      await writer.abort().catch(() => undefined);
      throw e;
    }
  }
  return counts;
}
