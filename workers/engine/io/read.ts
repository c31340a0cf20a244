// Streams a Dolma JSONL file (gzip / zstd / plain) as batches of lines, with precise error locations.
import { AssayError } from '../errors.js';
import type { Codec } from './codec.js';
import { LineSplitter, type LineBatch } from './lines.js';
import { locateGzipFailure } from './gzip-locate.js';
import { errorText, openDecoded, type RawDigest } from './source.js';

export type { LineBatch } from './lines.js';

export interface ReadProgress {
  /** Bytes read from disk so far (equals `bytes` for plain files, up to read-ahead). */
  compressedBytes: number;
  /** Decoded bytes handed to the line splitter so far, newlines included. */
  bytes: number;
}

export interface ReadOptions {
  /** Force a codec (config `compression.input`); otherwise magic bytes, then the extension decide. */
  codec?: Codec;
  signal?: AbortSignal;
  onProgress?: (p: ReadProgress) => void;
  /** Most lines per batch (default 1024); a batch is also closed once it holds ≥ 4 MiB. */
  batchLines?: number;
  /** When given, a line of invalid UTF-8 is reported here and skipped instead of thrown. */
  onBadLine?: (err: AssayError) => void;
  /**
   * When given, the raw bytes are hashed as they are read (sha256 of the file as stored) and the digest
   * is reported here once the whole file was read, before the reader finishes; not on failure.
   */
  onDigest?: (d: RawDigest) => void;
}

const DEFAULT_BATCH_LINES = 1024;
/** Decoders may hand over megabytes at once (stream.read() concatenates); split work into ≤ 64 KiB. */
const MAX_CHUNK = 64 * 1024;

/**
 * Lines of `file`, 1-based and contiguous within a batch. Lines read before a failure are still
 * delivered, then the failure is thrown: AssayError IO (unreadable / corrupt / truncated data,
 * naming the last complete line), PARSE (invalid UTF-8, naming the line), CANCELLED (signal).
 */
export async function* readLineBatches(file: string, opts: ReadOptions = {}): AsyncGenerator<LineBatch> {
  const { signal, onProgress } = opts;
  const batchLines = Math.max(1, Math.floor(opts.batchLines ?? DEFAULT_BATCH_LINES));
  if (signal?.aborted) throw cancelled(file);
  const src = await openDecoded(file, opts.codec, { hash: opts.onDigest !== undefined });
  const { onBadLine } = opts;
  const splitter = new LineSplitter(file, batchLines, onBadLine !== undefined);
  // Destroying the stream is not enough to wake a reader blocked on a pipe (fs streams wait for the
  // pending read before closing), so an abort also rejects the wait in progress directly.
  let rejectWait: ((e: unknown) => void) | undefined;
  const onAbort = (): void => {
    rejectWait?.(cancelled(file));
    src.destroy();
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const chunks = src.stream?.[Symbol.asyncIterator]() as AsyncIterator<Buffer> | undefined;
  let bytes = 0;
  let failure: unknown;
  try {
    if (chunks !== undefined) {
      try {
        for (;;) {
          const next = chunks.next();
          const { done, value: chunk } =
            signal === undefined
              ? await next
              : await new Promise<IteratorResult<Buffer>>((resolve, reject) => {
                  rejectWait = reject;
                  next.then(resolve, reject);
                });
          if (done) break;
          for (let off = 0; off < chunk.length; off += MAX_CHUNK) splitter.push(chunk.subarray(off, off + MAX_CHUNK));
          bytes += chunk.length;
          if (splitter.ready.length === 0) continue;
          onProgress?.({ compressedBytes: src.compressedBytes(), bytes });
          for (const item of splitter.ready.splice(0)) {
            if (signal?.aborted) throw cancelled(file);
            if (item instanceof AssayError) onBadLine?.(item);
            else yield item;
          }
        }
        if (signal?.aborted) throw cancelled(file);
        splitter.end();
      } catch (e) {
        if (signal?.aborted || (e instanceof AssayError && e.code === 'CANCELLED')) throw cancelled(file);
        failure = e;
        splitter.closeBatch();
      }
    } else {
      splitter.end();
    }
    for (const item of splitter.ready.splice(0)) {
      if (signal?.aborted) throw cancelled(file);
      if (item instanceof AssayError) onBadLine?.(item);
      else yield item;
    }
    onProgress?.({ compressedBytes: src.compressedBytes(), bytes });
    if (failure !== undefined) throw await asReadError(failure, file, src.codec, splitter.lineNo);
    // The decoder only ends after the hasher flushed, so the digest is settled by now (guarded: never hang).
    if (opts.onDigest !== undefined && src.digest !== undefined) opts.onDigest(await settledDigest(src.digest, file));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Not awaited: on a pipe the iterator only settles once the blocked read returns.
    chunks?.return?.().catch(() => undefined);
    src.destroy();
  }
}

async function settledDigest(digest: Promise<RawDigest>, file: string): Promise<RawDigest> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AssayError('INTERNAL', 'the content hash was not complete when the file ended', { file })), 5000);
  });
  try {
    return await Promise.race([digest, late]);
  } finally {
    clearTimeout(timer);
  }
}

function cancelled(file: string): AssayError {
  return new AssayError('CANCELLED', 'reading cancelled', { file });
}

async function asReadError(e: unknown, file: string, codec: Codec, linesRead: number): Promise<AssayError> {
  if (e instanceof AssayError) return e;
  const msg = errorText(e);
  // gunzip drops what it decoded last when it fails, so the lines read undercount: find the exact place.
  const located = codec === 'gzip' ? await locateGzipFailure(file).catch(() => undefined) : undefined;
  const lastLine = located?.lines ?? linesRead;
  const after = lastLine > 0 ? `after line ${lastLine} (the last complete line)` : 'before the first complete line';
  if (located?.kind === 'garbage') {
    return new AssayError('IO', `gzip data has trailing garbage from compressed byte offset ${located.offset} on, ${after}: ${msg}`, { file, ...(lastLine > 0 ? { line: lastLine } : {}), cause: e });
  }
  const where = located === undefined ? after : located.kind === 'truncated' ? `at compressed byte offset ${located.offset} (the end of the file), ${after}` : `near compressed byte offset ${located.offset}, ${after}`;
  const what =
    codec === 'plain'
      ? 'read failed'
      : /unexpected end|ended in middle/i.test(msg)
        ? `${codec} data is truncated`
        : `${codec} data is corrupt`;
  return new AssayError('IO', `${what} ${where}: ${msg}`, { file, ...(lastLine > 0 ? { line: lastLine } : {}), cause: e });
}

/** A job's progress sink: deltas of compressed bytes read, uncompressed bytes and documents. */
export type ProgressDelta = { compressedBytes: number; bytes: number; docs: number };

/** Adapts readLineBatches' cumulative `onProgress` to the per-call deltas jobs add up. */
export function compressedDeltas(sink: ((d: ProgressDelta) => void) | undefined): ((p: ReadProgress) => void) | undefined {
  if (!sink) return undefined;
  let last = 0;
  return (p) => {
    sink({ compressedBytes: p.compressedBytes - last, bytes: 0, docs: 0 });
    last = p.compressedBytes;
  };
}
