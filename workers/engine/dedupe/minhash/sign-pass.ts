// Pass 1: stream every document, write its id and length to the id file and its band keys to the bucket spill files.
import { closeSync, openSync, writeSync } from 'node:fs';
import { AssayError } from '../../errors.js';
import { compressedDeltas, parseDocumentLine, readLineBatches, type Codec } from '../../io/index.js';
import { bandKeys } from './bands.js';
import type { MinhashSigner } from './signer.js';
import type { RecordFiles } from './spill.js';

export interface SignPassOptions {
  readCodec?: Codec;
  signal?: AbortSignal;
  onProgress?: (delta: { compressedBytes: number; bytes: number; docs: number }) => void;
}

export interface SignCounts {
  docs: number;
  /** Documents with at least `n_grams` tokens, i.e. with a signature. */
  signed: number;
  bytes: number;
  /** sha256 of the documents file as stored, hashed while it was read (run manifests). */
  sha256: string;
  /** Estimated tokens of the texts, ⌈UTF-8 bytes / 4⌉ each. */
  tokens: number;
}

/**
 * Signs one documents file. Documents are numbered globally from `firstDoc` (file order, then line), as
 * DataTrove's `doc_idx`: a document without a signature still takes its index. Each line of the id file is
 * `<id as JSON>\t<text length in UTF-8 bytes>` so pass 3 writes attributes without re-reading the documents.
 */
export async function signFile(
  input: string,
  firstDoc: number,
  signer: MinhashSigner,
  buckets: RecordFiles,
  idFd: number,
  opts: SignPassOptions = {},
): Promise<SignCounts> {
  const counts: SignCounts = { docs: 0, signed: 0, bytes: 0, sha256: '', tokens: 0 };
  const { num_buckets: nb, hashes_per_bucket: r } = signer.cfg;
  const keys = new Uint32Array(nb * 2);
  const batches = readLineBatches(input, {
    signal: opts.signal,
    batchLines: 256,
    ...(opts.readCodec ? { codec: opts.readCodec } : {}),
    onProgress: compressedDeltas(opts.onProgress),
    onDigest: (d) => (counts.sha256 = d.sha256),
  });
  for await (const batch of batches) {
    let ids = '';
    let bytes = 0;
    for (let i = 0; i < batch.lines.length; i++) {
      const line = batch.firstLine + i;
      bytes += batch.bytes[i] ?? 0;
      const { id, text } = parseDoc(batch.lines[i] as string, input, line);
      const doc = firstDoc + counts.docs + i;
      if (doc > 0xfffffffe) throw new AssayError('CONFIG', 'more than 2^32 - 1 documents in one MinHash run', { file: input, line });
      const textBytes = Buffer.byteLength(text, 'utf8');
      counts.tokens += Math.ceil(textBytes / 4);
      ids += `${JSON.stringify(id ?? null)}\t${textBytes}\n`;
      const words = signer.signatureWords(text);
      if (words === null) continue;
      counts.signed++;
      bandKeys(words, nb, r, keys);
      for (let b = 0; b < nb; b++) buckets.add(b, keys[2 * b] as number, keys[2 * b + 1] as number, doc);
    }
    writeAll(idFd, ids);
    counts.docs += batch.lines.length;
    counts.bytes += bytes;
    opts.onProgress?.({ compressedBytes: 0, bytes, docs: batch.lines.length });
  }
  return counts;
}

function parseDoc(line: string, file: string, lineNo: number): { id: unknown; text: string } {
  const rec = parseDocumentLine(line, file, lineNo);
  const { id, text } = rec as { id?: unknown; text?: unknown };
  if (typeof text !== 'string') throw new AssayError('PARSE', `document has ${text === undefined ? 'no' : 'a non-string'} "text" field`, { file, line: lineNo });
  return { id, text };
}

function writeAll(fd: number, s: string): void {
  const b = Buffer.from(s, 'utf8');
  for (let off = 0; off < b.length; ) off += writeSync(fd, b, off);
}

export function openIdFile(path: string): number {
  try {
    return openSync(path, 'w');
  } catch (e) {
    throw new AssayError('IO', `cannot create MinHash work file: ${(e as Error).message}`, { file: path, cause: e });
  }
}

export { closeSync };
