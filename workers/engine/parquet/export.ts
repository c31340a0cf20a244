// `assay export --format parquet`: documents files (a mix output, any documents folder) → one Parquet shard each, metadata as columns.
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { AssayError } from '../errors.js';
import { compressedDeltas, expandGlobs, readJsonRecords } from '../io/index.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { countSource, estimateTokens, sha256File, sourceCounts, writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { cellOf, ColumnCollector, parquetSchemaOf, type Column } from './columns.js';

export interface ExportOptions {
  /** Documents files or globs. */
  documents: string[];
  /** Folder the `<name>.parquet` shards go to. */
  dest: string;
  /** Rows per row group (default 10,000): the most documents held in memory at once. */
  rowGroupRows?: number;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Notes for the user (a folder link `**` does not follow). */
  log?: (line: string) => void;
}

export interface ExportSummary {
  files: { input: string; output: string; rows: number }[];
  columns: Column[];
  rows: number;
  elapsedSec: number;
}

const DOC_EXT = /\.(jsonl?|json)(\.gz|\.zst|\.zstd)?$/i;

/** Documents files under a folder (a mix output or a `documents/` tree), hidden folders such as `.assay/` left out. */
export async function documentsIn(dir: string, cwd = process.cwd(), log?: (line: string) => void): Promise<string[]> {
  const found = await expandGlobs([join(dir, '**', '*')], { cwd, onNote: log });
  const root = resolve(cwd, dir);
  return found.filter((p) => DOC_EXT.test(p) && !relative(root, resolve(cwd, p)).split(sep).some((s) => s.startsWith('.')));
}

export async function runExport(opts: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = opts.cwd ?? process.cwd();
  const inputs = (await expandGlobs(opts.documents, { cwd, onNote: opts.log })).map((p) => resolve(cwd, p)).filter((p) => DOC_EXT.test(p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no documents files match ${opts.documents.map((d) => `'${d}'`).join(', ')}`, { field: 'documents' });
  const names = new Map<string, string>();
  const outputs = inputs.map((input) => {
    const name = basename(input).replace(DOC_EXT, '');
    const clash = names.get(name);
    if (clash !== undefined) throw new AssayError('CONFIG', `two inputs would both become ${name}.parquet: ${clash} and ${input}`, { file: input });
    names.set(name, input);
    return join(resolve(cwd, opts.dest), `${name}.parquet`);
  });
  let total = 0;
  for (const input of inputs) total += (await stat(input)).size;
  // Pass 1 finds every column and its type over all inputs, so every shard has one schema (readers of a
  // sharded dataset expect that); pass 2 writes. Each pass holds one batch of documents at a time.
  const tracker = new ProgressTracker('export', total * 2, inputs.length, opts.onProgress);
  const collector = new ColumnCollector();
  const read: InputRecord[] = [];
  for (const input of inputs) {
    const onDigest = (d: { sha256: string }): number => read.push({ path: input, role: 'documents', sha256: d.sha256 });
    for await (const batch of readJsonRecords(input, { signal: opts.signal, onDigest, onProgress: compressedDeltas((d) => tracker.add({ compressedBytes: d.compressedBytes })) })) {
      for (const r of batch) collector.add(r.value);
    }
  }
  const columns = collector.columns();
  const files: ExportSummary['files'] = [];
  const written: OutputRecord[] = [];
  for (const [k, input] of inputs.entries()) {
    const output = outputs[k] as string;
    const shard = await writeShard(input, output, columns, opts, tracker);
    files.push({ input, output, rows: shard.rows });
    // hyparquet-writer writes the file itself, so its hash takes one more read of what it wrote.
    const size = (await stat(output)).size;
    written.push({ path: output, role: 'parquet', size, sha256: await sha256File(output), docs: shard.rows, tokens: { count: shard.tokens, kind: 'estimate' }, bySource: sourceCounts(shard.bySource, 'estimate') });
    tracker.add({ files: 1 });
  }
  tracker.emit();
  // DEST/.assay/manifest.json (stage `export`): the Parquet shards, each input with its hash and parent run.
  await writeRunManifest(resolve(cwd, opts.dest), { stage: 'export', started: startedAt, config: { documents: opts.documents, dest: opts.dest, format: 'parquet', rowGroupRows: opts.rowGroupRows ?? 10_000 } }, read, written);
  return { files, columns, rows: files.reduce((s, f) => s + f.rows, 0), elapsedSec: (performance.now() - started) / 1000 };
}

interface ShardCounts {
  rows: number;
  tokens: number;
  bySource: Record<string, { docs: number; tokens: number }>;
}

async function writeShard(input: string, output: string, columns: Column[], opts: ExportOptions, tracker: ProgressTracker): Promise<ShardCounts> {
  const tmp = `${output}.tmp`;
  await mkdir(dirname(output), { recursive: true });
  const groupRows = Math.max(1, opts.rowGroupRows ?? 10_000);
  let rows = 0;
  const counts: ShardCounts = { rows: 0, tokens: 0, bySource: {} };
  try {
    const writer = new ParquetWriter({ writer: fileWriter(tmp), schema: parquetSchemaOf(columns), codec: 'SNAPPY', createdBy: 'assay 0.1.0' });
    let pending: Record<string, unknown>[] = [];
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      await writer.write({ columnData: columns.map((c) => ({ name: c.name, data: pending.map((d) => cellOf(d, c)) })), rowGroupSize: pending.length });
      rows += pending.length;
      pending = [];
    };
    const onProgress = compressedDeltas((d) => tracker.add(d));
    for await (const batch of readJsonRecords(input, { signal: opts.signal, onProgress })) {
      for (const r of batch) {
        pending.push(r.value);
        const text = (r.value as { text?: unknown }).text;
        const tokens = typeof text === 'string' ? estimateTokens(Buffer.byteLength(text)) : 0;
        counts.tokens += tokens;
        countSource(counts.bySource, (r.value as { source?: unknown }).source, tokens);
      }
      if (pending.length >= groupRows) await flush();
    }
    await flush();
    await writer.finish();
    await rename(tmp, output);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    if (e instanceof AssayError) throw e;
    throw new AssayError('IO', `cannot write Parquet: ${(e as Error).message}`, { file: output, cause: e });
  }
  counts.rows = rows;
  return counts;
}
