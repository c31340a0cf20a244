// One Parquet file → one Dolma documents file: the unit of work of `assay import`, run in-process or on a pool worker.
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { AssayError } from '../errors.js';
import { AtomicWriter } from '../io/index.js';
import { estimateTokens } from '../manifest/write.js';
import { idText, toJsonValue } from './values.js';

/** Everything a worker needs, plain data only (it crosses a process boundary). */
export interface ImportTask {
  input: string;
  output: string;
  /** The input's file name without `.parquet`: made-up ids are `<name>-<row>`. */
  name: string;
  textField: string;
  idField: string;
  source: string;
  added: string;
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
  /** The documents file as stored, for the run manifest. */
  outputSize: number;
  outputSha256: string;
  /** ⌈UTF-8 bytes of each text / 4⌉, summed: the manifest's labelled estimate. */
  tokens: number;
  /** Not read again: an earlier run with the same settings finished it (its marker's summary). */
  skipped?: boolean;
}

export interface ImportDelta {
  compressedBytes: number;
  bytes: number;
  docs: number;
}

export async function importFile(t: ImportTask, hooks: { signal?: AbortSignal; onProgress?: (d: ImportDelta) => void }): Promise<ImportFileSummary> {
  const summary: ImportFileSummary = { input: t.input, output: t.output, rows: 0, docs: 0, noText: 0, generatedIds: 0, outputSize: 0, outputSha256: '', tokens: 0 };
  const file = await asyncBufferFromFile(t.input);
  const metadata = await parquetMetadataAsync(file);
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  const writer = await AtomicWriter.open(t.output);
  try {
    let rowStart = 0;
    // One row group in memory at a time: FineWeb's shards are GBs, their row groups tens of MB.
    for (const group of metadata.row_groups) {
      if (hooks.signal?.aborted) throw new AssayError('CANCELLED', 'cancelled');
      const rowEnd = rowStart + Number(group.num_rows);
      let rows: Record<string, unknown>[];
      try {
        rows = await parquetReadObjects({ file, metadata, rowStart, rowEnd, compressors });
      } catch (e) {
        throw new AssayError('IO', `cannot read rows ${rowStart}–${rowEnd - 1}: ${(e as Error).message}`, { file: t.input, cause: e });
      }
      let bytes = 0;
      const lines: string[] = [];
      rows.forEach((row, k) => {
        const line = toDocument(row, rowStart + k, columns, t, summary);
        if (line === null) return;
        bytes += Buffer.byteLength(line) + 1;
        lines.push(line);
      });
      if (lines.length > 0) await writer.write(lines.join('\n') + '\n');
      summary.rows += rows.length;
      hooks.onProgress?.({ compressedBytes: Number(group.total_compressed_size ?? 0n), bytes, docs: lines.length });
      rowStart = rowEnd;
    }
    await writer.commit();
    summary.outputSize = writer.bytesOut;
    summary.outputSha256 = writer.sha256;
  } catch (e) {
    await writer.abort();
    throw e;
  }
  return summary;
}

/** One row as a Dolma document line: the text and id columns lifted out, every other column kept in `metadata`. */
function toDocument(row: Record<string, unknown>, index: number, columns: string[], t: ImportTask, summary: ImportFileSummary): string | null {
  const text = row[t.textField];
  if (typeof text !== 'string') {
    summary.noText++;
    return null;
  }
  let id = idText(row[t.idField]);
  if (id === null) {
    summary.generatedIds++;
    id = `${t.name}-${index}`;
  }
  const metadata: Record<string, unknown> = {};
  for (const c of columns) if (c !== t.textField && c !== t.idField) metadata[c] = toJsonValue(row[c]);
  // FineWeb's `date` is when the page was crawled, which is what Dolma's `created` means; it stays in metadata too.
  const created = typeof metadata.date === 'string' ? metadata.date : t.added;
  summary.docs++;
  summary.tokens += estimateTokens(Buffer.byteLength(text));
  return JSON.stringify({ id, text, source: t.source, added: t.added, created, metadata });
}
