// Dedupe one documents file into its attribute file, row for row, written atomically.
import { AssayError } from '../../errors.js';
import { AtomicWriter, compressedDeltas, parseDocumentLine, readLineBatches, type Codec } from '../../io/index.js';
import type { ApplyMode } from './modes.js';

export interface FileJob {
  input: string;
  output: string;
  /** `compression.input` override; otherwise magic bytes, then the name decide. */
  readCodec?: Codec;
  /** `compression.output` override; otherwise the output name (= the input's) decides. */
  writeCodec?: Codec;
}

export interface FileCounts {
  docs: number;
  /** Documents that got at least one span. */
  duplicateDocs: number;
  spans: number;
  bytes: number;
  /** sha256 of the documents file as stored, hashed while read; estimated tokens of its texts (⌈UTF-8 bytes / 4⌉ each). */
  sha256: string;
  tokens: number;
  /** The attributes file as stored (complete under its `.tmp` name until the run publishes it). */
  output: { size: number; sha256: string };
}

export interface DedupeFileOptions {
  signal?: AbortSignal;
  onProgress?: (delta: { compressedBytes: number; bytes: number; docs: number }) => void;
}

/** Dolma's row: serde_json with sorted keys and no `source` — `{"attributes":{…},"id":…}`. */
export function attributeRow(id: unknown, attribute: string, spans: unknown[] | undefined): string {
  const attrs = spans === undefined ? '{}' : `{${JSON.stringify(attribute)}:${JSON.stringify(spans)}}`;
  return `{"attributes":${attrs},"id":${JSON.stringify(id ?? null)}}`;
}

export async function dedupeFile(job: FileJob, attribute: string, apply: ApplyMode, opts: DedupeFileOptions = {}): Promise<FileCounts> {
  const counts: FileCounts = { docs: 0, duplicateDocs: 0, spans: 0, bytes: 0, sha256: '', tokens: 0, output: { size: 0, sha256: '' } };
  const writer = await AtomicWriter.open(job.output, { mkdir: true, ...(job.writeCodec ? { codec: job.writeCodec } : {}) });
  try {
    const batches = readLineBatches(job.input, {
      signal: opts.signal,
      batchLines: 256,
      ...(job.readCodec ? { codec: job.readCodec } : {}),
      onProgress: compressedDeltas(opts.onProgress),
      onDigest: (d) => (counts.sha256 = d.sha256),
    });
    for await (const batch of batches) {
      let out = '';
      let bytes = 0;
      for (let i = 0; i < batch.lines.length; i++) {
        const line = batch.firstLine + i;
        bytes += batch.bytes[i] ?? 0;
        const record = parseDocumentLine(batch.lines[i] as string, job.input, line);
        if (typeof record.text === 'string') counts.tokens += Math.ceil(Buffer.byteLength(record.text, 'utf8') / 4);
        const spans = apply(record, job.input, line);
        if (spans !== undefined && spans.length > 0) {
          counts.duplicateDocs++;
          counts.spans += spans.length;
        }
        out += attributeRow(record.id, attribute, spans) + '\n';
      }
      counts.docs += batch.lines.length;
      counts.bytes += bytes;
      opts.onProgress?.({ compressedBytes: 0, bytes, docs: batch.lines.length });
      await writer.write(out);
    }
    if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'dedupe cancelled', { file: job.input });
    // Complete at `<output>.tmp`: the run publishes every output with the filter, once all files succeeded.
    await writer.commit({ deferRename: true });
    counts.output = { size: writer.bytesOut, sha256: writer.sha256 };
  } catch (e) {
    await writer.abort().catch(() => undefined);
    throw e;
  }
  return counts;
}

