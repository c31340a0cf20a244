// `assay import`: Parquet files (FineWeb, any Hugging Face text dataset) → Dolma documents, one row group in memory at a time.
import { stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { AssayError } from '../errors.js';
import { AtomicWriter, expandGlobs } from '../io/index.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { idText, toJsonValue } from './values.js';

export interface ImportOptions {
  /** Parquet files or globs. */
  inputs: string[];
  /** Dataset root: documents go to `<dest>/documents/<name>.jsonl.gz`. */
  dest: string;
  textField?: string;
  idField?: string;
  /** Dolma `source` of every document (default: the name of the folder holding the Parquet file). */
  source?: string;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
}

export interface ImportFileSummary {
  input: string;
  output: string;
  rows: number;
  docs: number;
  /** Rows whose text cell is null (or not a string): no document can be made of them. */
  noText: number;
  /** Rows without an id cell, given `<name>-<row>`. */
  generatedIds: number;
}

export interface ImportSummary {
  files: ImportFileSummary[];
  docs: number;
  elapsedSec: number;
}

interface Planned {
  input: string;
  output: string;
  name: string;
  metadata: FileMetaData;
  columns: string[];
  bytes: number;
}

const stemOf = (path: string): string => basename(path).replace(/\.parquet$/i, '');

/** Where the documents of one Parquet file go under a dataset root (the host confines it before an app job starts). */
export const importOutputPath = (destRoot: string, input: string): string => join(destRoot, 'documents', `${stemOf(input)}.jsonl.gz`);

async function plan(opts: ImportOptions, cwd: string): Promise<Planned[]> {
  const inputs = (await expandGlobs(opts.inputs, { cwd })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no Parquet files match ${opts.inputs.map((d) => `'${d}'`).join(', ')}`, { field: 'inputs' });
  const textField = opts.textField ?? 'text';
  const byName = new Map<string, string>();
  const out: Planned[] = [];
  for (const input of inputs) {
    const name = stemOf(input);
    const clash = byName.get(name);
    // Two inputs with one file name would write one output: refuse rather than let the second overwrite the first.
    if (clash !== undefined) throw new AssayError('CONFIG', `two inputs would both become documents/${name}.jsonl.gz: ${clash} and ${input}`, { file: input });
    byName.set(name, input);
    let metadata: FileMetaData;
    try {
      metadata = await parquetMetadataAsync(await asyncBufferFromFile(input));
    } catch (e) {
      throw new AssayError('IO', `not a readable Parquet file: ${(e as Error).message}`, { file: input, cause: e });
    }
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    if (!columns.includes(textField)) {
      throw new AssayError('CONFIG', `no text column '${textField}' (--text-field names another); its columns are: ${columns.join(', ') || '(none)'}`, { file: input, field: 'text-field' });
    }
    if (opts.idField !== undefined && !columns.includes(opts.idField)) {
      throw new AssayError('CONFIG', `no id column '${opts.idField}'; its columns are: ${columns.join(', ')}`, { file: input, field: 'id-field' });
    }
    out.push({ input, output: importOutputPath(resolve(cwd, opts.dest), input), name, metadata, columns, bytes: (await stat(input)).size });
  }
  return out;
}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const cwd = opts.cwd ?? process.cwd();
  const planned = await plan(opts, cwd);
  const tracker = new ProgressTracker('import', planned.reduce((s, p) => s + p.bytes, 0), planned.length, opts.onProgress);
  const added = new Date().toISOString();
  const files: ImportFileSummary[] = [];
  for (const p of planned) {
    files.push(await importFile(p, opts, added, tracker));
    tracker.add({ files: 1 });
  }
  tracker.emit();
  return { files, docs: files.reduce((s, f) => s + f.docs, 0), elapsedSec: (performance.now() - started) / 1000 };
}

async function importFile(p: Planned, opts: ImportOptions, added: string, tracker: ProgressTracker): Promise<ImportFileSummary> {
  const textField = opts.textField ?? 'text';
  const idField = opts.idField ?? 'id';
  const source = opts.source ?? basename(dirname(p.input));
  const summary: ImportFileSummary = { input: p.input, output: p.output, rows: 0, docs: 0, noText: 0, generatedIds: 0 };
  const file = await asyncBufferFromFile(p.input);
  const writer = await AtomicWriter.open(p.output);
  try {
    let rowStart = 0;
    for (const group of p.metadata.row_groups) {
      if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
      const rowEnd = rowStart + Number(group.num_rows);
      let rows: Record<string, unknown>[];
      try {
        rows = await parquetReadObjects({ file, metadata: p.metadata, rowStart, rowEnd, compressors });
      } catch (e) {
        throw new AssayError('IO', `cannot read rows ${rowStart}–${rowEnd - 1}: ${(e as Error).message}`, { file: p.input, cause: e });
      }
      let bytes = 0;
      const lines: string[] = [];
      rows.forEach((row, k) => {
        const line = toDocument(row, rowStart + k, p, { textField, idField, source, added }, summary);
        if (line === null) return;
        bytes += Buffer.byteLength(line) + 1;
        lines.push(line);
      });
      if (lines.length > 0) await writer.write(lines.join('\n') + '\n');
      summary.rows += rows.length;
      tracker.add({ compressedBytes: Number(group.total_compressed_size ?? 0n), bytes, docs: lines.length });
      rowStart = rowEnd;
    }
    await writer.commit();
  } catch (e) {
    await writer.abort();
    throw e;
  }
  return summary;
}

interface Fields {
  textField: string;
  idField: string;
  source: string;
  added: string;
}

/** One row as a Dolma document line: the text and id columns lifted out, every other column kept in `metadata`. */
function toDocument(row: Record<string, unknown>, index: number, p: Planned, f: Fields, summary: ImportFileSummary): string | null {
  const text = row[f.textField];
  if (typeof text !== 'string') {
    summary.noText++;
    return null;
  }
  let id = idText(row[f.idField]);
  if (id === null) {
    summary.generatedIds++;
    id = `${p.name}-${index}`;
  }
  const metadata: Record<string, unknown> = {};
  for (const c of p.columns) if (c !== f.textField && c !== f.idField) metadata[c] = toJsonValue(row[c]);
  // FineWeb's `date` is when the page was crawled, which is what Dolma's `created` means; it stays in metadata too.
  const created = typeof metadata.date === 'string' ? metadata.date : f.added;
  summary.docs++;
  return JSON.stringify({ id, text, source: f.source, added: f.added, created, metadata });
}
