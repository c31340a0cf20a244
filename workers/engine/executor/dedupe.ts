// Bloom dedupe on Slurm: task i owns hash partition i of N (Dolma's num_partitions); the final step merges the N sets.
import { join, resolve } from 'node:path';
import type { DedupeConfig } from '../../../shared/dedupe/schema.js';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { stringOption, UsageError, type ParsedArgs } from '../cli/args.js';
import { loadDedupeConfig } from '../cli/dedupe.js';
import { attributeName, dedupeOutputPath, directoryName } from '../dedupe/dolma/index.js';
import { AssayError } from '../errors.js';
import { AtomicWriter, readJsonRecords, writeFileAtomic } from '../io/index.js';
import { attributeSetFolder, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { resolvedInputs, type PlannedRun } from './adapters.js';
import type { RunPlan } from './state.js';

interface DedupeData {
  config: DedupeConfig;
  inputs: string[];
  partitions: number;
}

type Span = [number, number, number];

/** Task i's config: partition i of N, its own bloom filter file (no filter is written by two tasks). */
export function partitionConfig(cfg: DedupeConfig, i: number, n: number): DedupeConfig {
  return { ...cfg, dedupe: { ...cfg.dedupe, num_partitions: n, partition_index: i }, bloom_filter: { ...cfg.bloom_filter, file: `${cfg.bloom_filter.file}.partition-${i}-of-${n}` }, assay: undefined };
}

export async function dedupePlan(args: ParsedArgs, executor: ExecutorConfig, cwd: string, dir: string): Promise<PlannedRun> {
  const path = stringOption(args, 'config');
  if (!path) throw new UsageError('dedupe needs -c CONFIG (YAML or JSON, Dolma deduper format)');
  const cfg = await loadDedupeConfig(resolve(cwd, path));
  if (cfg.dedupe.num_partitions > 1) throw new AssayError('CONFIG', 'dedupe.num_partitions is set by --executor slurm (one partition per task); leave it at 1', { file: path, field: 'dedupe.num_partitions' });
  if (cfg.dedupe.file_partition) throw new AssayError('CONFIG', 'dedupe.file_partition cannot be combined with --executor slurm (tasks partition the keys, each reads every file)', { file: path, field: 'dedupe.file_partition' });
  const inputs = await resolvedInputs(cfg.documents, cwd, 'documents');
  const config = { ...cfg, documents: inputs, bloom_filter: { ...cfg.bloom_filter, file: resolve(cwd, cfg.bloom_filter.file) } };
  const n = executor.tasks ?? 2;
  const tasks = [];
  for (let i = 0; i < n; i++) {
    const file = join(dir, 'configs', `task-${i}.json`);
    await writeFileAtomic(file, JSON.stringify(partitionConfig(config, i, n), null, 2) + '\n', { mkdir: true });
    tasks.push({ inputs, argv: ['dedupe', '-c', file, '--quiet'] });
  }
  return { tasks, data: { config, inputs, partitions: n } satisfies DedupeData, hasFinal: true };
}

/** Async records of an attribute file, one at a time (the N partition files are read in lockstep). */
async function* rows(path: string, onDigest: (d: { sha256: string }) => void): AsyncGenerator<Record<string, unknown>> {
  for await (const batch of readJsonRecords(path, { onDigest })) for (const r of batch) yield r.value as Record<string, unknown>;
}

/**
 * Each key belongs to one partition and every task reads the files in the same order, so the union of the N
 * partitions' spans, sorted, is what one process writes. The merged set takes the unpartitioned name and key.
 */
export async function mergeDedupePartitions(run: RunPlan): Promise<void> {
  const started = new Date();
  const { config, inputs, partitions: n } = run.data as DedupeData;
  const d = config.dedupe;
  const whole = { ...d, num_partitions: 1, partition_index: 0 };
  const key = attributeName(whole);
  // Partition i's key (`<attribute>_<i>`), once, not per row.
  const partKeys = Array.from({ length: n }, (_, i) => attributeName({ ...d, num_partitions: n, partition_index: i }));
  const read: InputRecord[] = [];
  const written: OutputRecord[] = [];
  for (const input of inputs) {
    const parts = Array.from({ length: n }, (_, i) => dedupeOutputPath(input, d.document_dir, directoryName({ ...d, num_partitions: n, partition_index: i })));
    const iters = parts.map((p) => rows(p, (g) => read.push({ path: p, role: 'attributes', sha256: g.sha256 })));
    const out = dedupeOutputPath(input, d.document_dir, directoryName(whole));
    const writer = await AtomicWriter.open(out);
    let docs = 0;
    try {
      for (;;) {
        const next = await Promise.all(iters.map((it) => it.next()));
        if (next.every((r) => r.done)) break;
        const missing = next.findIndex((r) => r.done);
        if (missing >= 0) throw new AssayError('PARSE', `partition ${missing} has fewer rows than the others (row ${docs + 1}); rerun that task`, { file: parts[missing] });
        const first = next[0]!.value as { id: unknown };
        const spans: Span[] = [];
        next.forEach((r, i) => {
          const row = r.value as { id: unknown; attributes?: Record<string, Span[]> };
          if (row.id !== first.id) throw new AssayError('PARSE', `row ${docs + 1} is document ${String(row.id)} here but ${String(first.id)} in partition 0`, { file: parts[i] });
          spans.push(...(row.attributes?.[partKeys[i] as string] ?? []));
        });
        spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        await writer.write(JSON.stringify({ attributes: { [key]: spans }, id: first.id }) + '\n');
        docs++;
      }
      await writer.commit();
    } catch (e) {
      await writer.abort();
      throw e;
    }
    written.push({ path: out, role: `attributes/${directoryName(whole)}`, size: writer.bytesOut, sha256: writer.sha256, docs, tokens: null });
  }
  const folder = attributeSetFolder(written[0]!.path, directoryName(whole));
  await writeRunManifest(folder, { stage: 'dedupe', started, config: { ...config, slurm: { partitions: n, merged: true } } }, read, written);
}
