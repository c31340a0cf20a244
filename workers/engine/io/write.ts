// Atomic, streaming output files: bytes go (compressed) to `<final>.tmp`, renamed to the final name on commit.
import { createHash, type Hash } from 'node:crypto';
import { mkdir, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { finished, pipeline, type Transform, type Writable } from 'node:stream';
import { createGzip, type ZlibOptions } from 'node:zlib';
import { AssayError } from '../errors.js';
import { inferCodec, type Codec } from './codec.js';
import { errorText } from './source.js';
import { newZstdCompressStream } from './zstd.js';

export interface AtomicWriterOptions {
  /** Output codec; inferred from the final name (Dolma's rule) when absent. */
  codec?: Codec;
  /** Compression level: gzip default 6 (as Dolma / flate2), zstd default 3 (as Dolma). */
  level?: number;
  /** Create the parent directory first (default true, as Dolma's writers do). */
  mkdir?: boolean;
}

/** Small writes are gathered into one buffer of this size and handed to the stream at once. */
const CHUNK = 64 * 1024;
const RESOLVED: Promise<void> = Promise.resolve();

type State = 'open' | 'committing' | 'committed' | 'aborted' | 'failed';

/**
 * One output file. Nothing ever exists under the final name until `commit()` has flushed and closed
 * the temporary file and renamed it, so a crash or a failed write leaves at most `<final>.tmp`
 * (which glob expansion skips). Not fsync'ed: like Dolma, durability is left to the OS.
 */
export class AtomicWriter {
  readonly tmpPath: string;
  #head: Writable;
  #file: Writable;
  #done: Promise<Error | undefined>;
  #failure: Error | undefined;
  #buf = Buffer.allocUnsafe(CHUNK);
  #pos = 0;
  #bytesIn = 0;
  /** The bytes as they reach the file (compressed), hashed on the way for run manifests: no second pass. */
  readonly #hash: Hash = createHash('sha256');
  #bytesOut = 0;
  #sha256: string | undefined;
  #state: State = 'open';

  private constructor(
    readonly path: string,
    readonly codec: Codec,
    fh: FileHandle,
    level: number | undefined,
  ) {
    this.tmpPath = path + '.tmp';
    this.#file = fh.createWriteStream();
    const compressor = makeCompressor(codec, level);
    this.#head = compressor ?? this.#file;
    this.#done = new Promise((resolve) => {
      const settle = (err: Error | null | undefined): void => {
        if (err) this.#failure ??= err;
        resolve(err ?? undefined);
      };
      if (compressor === null) finished(this.#file, settle);
      else pipeline(compressor, this.#file, settle);
    });
    // A second 'data' listener beside pipeline's pipe sees every compressed chunk once, in order.
    if (compressor !== null) compressor.on('data', (chunk: Buffer) => this.#hashOut(chunk));
  }

  static async open(finalPath: string, opts: AtomicWriterOptions = {}): Promise<AtomicWriter> {
    const codec = opts.codec ?? inferCodec(finalPath);
    const tmpPath = finalPath + '.tmp';
    checkLevel(codec, opts.level);
    try {
      if (opts.mkdir ?? true) await mkdir(dirname(finalPath), { recursive: true });
    } catch (e) {
      throw new AssayError('IO', `cannot create the output directory: ${errorText(e)}`, { file: finalPath, cause: e });
    }
    let fh: FileHandle;
    try {
      // A leftover (or planted) `.tmp` goes first, and the new one is created exclusively: opening an
      // existing name would follow a symlink there and write wherever it points.
      await unlink(tmpPath).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
      fh = await open(tmpPath, 'wx');
    } catch (e) {
      throw new AssayError('IO', `cannot open for writing: ${errorText(e)}`, { file: tmpPath, cause: e });
    }
    return new AtomicWriter(finalPath, codec, fh, opts.level);
  }

  /** Uncompressed bytes accepted so far. */
  get bytesIn(): number {
    return this.#bytesIn;
  }

  /** Bytes of the file as stored (compressed), final once committed. */
  get bytesOut(): number {
    return this.#bytesOut;
  }

  /** sha256 (hex) of the file as stored; known once `commit()` has resolved. */
  get sha256(): string {
    if (this.#sha256 === undefined) throw this.#misuse('sha256 before commit');
    return this.#sha256;
  }

  /**
   * Appends data. Resolves at once unless a full 64 KiB block met backpressure, in which case it
   * resolves on 'drain'; a Buffer is copied, so the caller may reuse it.
   */
  write(chunk: string | Buffer): Promise<void> {
    if (this.#state !== 'open') return Promise.reject(this.#misuse('write'));
    if (this.#failure !== undefined) return Promise.reject(this.#ioError(this.#failure));
    if (typeof chunk !== 'string') return this.#writeBytes(chunk, false);
    const room = CHUNK - this.#pos;
    // 3 bytes per UTF-16 unit is the UTF-8 worst case, so the common short line needs no measuring.
    if (chunk.length * 3 <= room || (chunk.length <= room && Buffer.byteLength(chunk) <= room)) {
      const n = this.#buf.write(chunk, this.#pos);
      this.#pos += n;
      this.#bytesIn += n;
      return this.#pos === CHUNK ? this.#settle(this.#flushBuf()) : RESOLVED;
    }
    if (chunk.length * 3 <= CHUNK) {
      // Does not fit the rest of the block but surely fits an empty one: encode straight into it.
      const ok = this.#pos > 0 ? this.#flushBuf() : true;
      const n = this.#buf.write(chunk, 0);
      this.#pos = n;
      this.#bytesIn += n;
      return this.#settle(ok);
    }
    return this.#writeBytes(Buffer.from(chunk), true);
  }

  /**
   * Flushes, finishes the codec stream, closes the file and renames `<final>.tmp` to the final name.
   * With `deferRename` the complete file stays at `tmpPath`; the caller promotes it later with
   * `promoteTemp` (so a multi-shard run can publish all of its outputs only when every shard succeeded).
   */
  async commit(opts: { deferRename?: boolean } = {}): Promise<void> {
    if (this.#state !== 'open') throw this.#misuse('commit');
    this.#state = 'committing';
    try {
      if (this.#failure !== undefined) throw this.#failure;
      if (this.#pos > 0) await this.#settle(this.#flushBuf());
      this.#head.end();
      const err = await this.#done;
      if (err !== undefined) throw err;
      await this.#fileClosed();
      this.#sha256 = this.#hash.digest('hex');
      if (!opts.deferRename) await rename(this.tmpPath, this.path);
      this.#state = 'committed';
    } catch (e) {
      this.#state = 'failed';
      await this.#discard();
      throw this.#ioError(e);
    }
  }

  /** Stops writing and deletes the temporary file; does nothing once committed or aborted. */
  async abort(): Promise<void> {
    if (this.#state === 'committed' || this.#state === 'aborted') return;
    this.#state = 'aborted';
    await this.#discard();
  }

  #writeBytes(b: Buffer, owned: boolean): Promise<void> {
    this.#bytesIn += b.length;
    if (b.length <= CHUNK - this.#pos) {
      b.copy(this.#buf, this.#pos);
      this.#pos += b.length;
      return this.#pos === CHUNK ? this.#settle(this.#flushBuf()) : RESOLVED;
    }
    let ok = this.#pos > 0 ? this.#flushBuf() : true;
    if (b.length < CHUNK) {
      b.copy(this.#buf, 0);
      this.#pos = b.length;
    } else {
      ok = this.#push(owned ? b : Buffer.from(b)) && ok;
    }
    return this.#settle(ok);
  }

  /** Hands the gathered block to the stream; false means the caller should wait for 'drain'. */
  #flushBuf(): boolean {
    const out = this.#pos === CHUNK ? this.#buf : this.#buf.subarray(0, this.#pos);
    this.#buf = Buffer.allocUnsafe(CHUNK);
    this.#pos = 0;
    return this.#push(out);
  }

  #push(out: Buffer): boolean {
    // Writing to a destroyed stream would neither fail loudly nor ever drain.
    if (this.#head.destroyed) return false;
    if (this.#head === this.#file) this.#hashOut(out);
    return this.#head.write(out);
  }

  #hashOut(chunk: Buffer): void {
    this.#hash.update(chunk);
    this.#bytesOut += chunk.length;
  }

  #settle(ok: boolean): Promise<void> {
    if (ok) return RESOLVED;
    const head = this.#head;
    if (head.destroyed) return Promise.reject(this.#ioError(this.#failure ?? new Error('output stream closed')));
    return new Promise((resolve, reject) => {
      const cleanup = (): void => {
        head.off('drain', onDrain);
        head.off('error', onError);
        head.off('close', onClose);
      };
      const onDrain = (): void => {
        cleanup();
        resolve();
      };
      const onError = (err: Error): void => {
        cleanup();
        reject(this.#ioError(err));
      };
      const onClose = (): void => {
        cleanup();
        reject(this.#ioError(this.#failure ?? new Error('output stream closed')));
      };
      head.on('drain', onDrain);
      head.on('error', onError);
      head.on('close', onClose);
    });
  }

  async #fileClosed(): Promise<void> {
    if (this.#file.closed) return;
    await new Promise<void>((resolve) => this.#file.once('close', () => resolve()));
  }

  async #discard(): Promise<void> {
    this.#head.destroy();
    this.#file.destroy();
    await this.#done;
    await this.#fileClosed();
    await unlink(this.tmpPath).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw new AssayError('IO', `cannot delete: ${errorText(e)}`, { file: this.tmpPath, cause: e });
    });
  }

  #ioError(e: unknown): AssayError {
    if (e instanceof AssayError) return e;
    return new AssayError('IO', `write failed: ${errorText(e)}`, { file: this.path, cause: e });
  }

  #misuse(op: string): AssayError {
    return new AssayError('INTERNAL', `${op}() on a writer that is ${this.#state}`, { file: this.path });
  }
}

/**
 * Uncompressed bytes gzip may hold before a write waits for 'drain' (its writable high-water mark; the
 * default, 16 KiB, is less than one block): gzip runs on libuv's pool, so with room for a batch's output
 * the caller goes on to the next batch while the last one is compressed, instead of waiting for it.
 */
const COMPRESS_BEHIND = 1024 * 1024;
/** Compressed output per round trip to the pool (zlib's default is 16 KiB); the bytes written are the same. */
const GZIP_CHUNK = 64 * 1024;

function makeCompressor(codec: Codec, level: number | undefined): Transform | null {
  // zlib hands its options on to Transform, though @types/node's ZlibOptions does not list the stream ones.
  if (codec === 'gzip') return createGzip({ level: level ?? 6, chunkSize: GZIP_CHUNK, writableHighWaterMark: COMPRESS_BEHIND } as ZlibOptions);
  // The checksum (as the zstd CLI writes by default) lets readers detect corrupted frames.
  if (codec === 'zstd') return newZstdCompressStream({ compressionLevel: level ?? 3, checksumFlag: true });
  return null;
}

/** A compression level `codec` accepts (none: its default), or a CONFIG error naming the range. */
export function checkLevel(codec: Codec, level: number | undefined, field = 'level'): void {
  if (level === undefined || codec === 'plain') return;
  const [lo, hi] = codec === 'gzip' ? [0, 9] : [-7, 22];
  if (!Number.isInteger(level) || level < lo || level > hi) {
    throw new AssayError('CONFIG', `${codec} level must be an integer in [${lo}, ${hi}], got ${level}`, { field });
  }
}

/**
 * Each line goes to the writer as it is, its newline apart: no batch-long string to flatten (a string that size is
 * a fresh allocation, its pages faulted in, then copied again into a Buffer) and no string joined per line. A write
 * that did not finish at once (a new promise, not the writer's shared resolved one) is awaited before the next, so
 * backpressure waits one write at a time.
 */
export async function writeLines(writer: AtomicWriter, lines: readonly string[]): Promise<void> {
  let last: Promise<void> | null = null;
  for (const line of lines) {
    let p = writer.write(line);
    if (p !== last) await (last = p);
    p = writer.write('\n');
    if (p !== last) await (last = p);
  }
}

/** What was stored: size on disk and sha256 of those bytes. */
export interface WrittenFile {
  bytes: number;
  sha256: string;
}

/** Writes a small file (summary, marker) atomically; codec from the name unless given; `deferRename` as in `commit`. */
export async function writeFileAtomic(path: string, data: string | Buffer, opts: AtomicWriterOptions & { deferRename?: boolean } = {}): Promise<WrittenFile> {
  const writer = await AtomicWriter.open(path, opts);
  try {
    await writer.write(data);
    await writer.commit({ deferRename: opts.deferRename ?? false });
  } catch (e) {
    await writer.abort();
    throw e;
  }
  return { bytes: writer.bytesOut, sha256: writer.sha256 };
}

/** Publish a file completed with `commit({ deferRename: true })`. */
export async function promoteTemp(finalPath: string): Promise<void> {
  try {
    await rename(finalPath + '.tmp', finalPath);
  } catch (e) {
    throw new AssayError('IO', `cannot publish output: ${errorText(e)}`, { file: finalPath, cause: e });
  }
}

/** Delete a deferred temporary file (ignores one that is already gone). */
export async function discardTemp(finalPath: string): Promise<void> {
  await unlink(finalPath + '.tmp').catch(() => undefined);
}
