// A multi-member gzip decoder that knows where each member starts, compressed and decompressed (WARC records' offsets).
import { Transform, type TransformCallback } from 'node:stream';
import { constants, crc32, createInflateRaw, inflateRawSync, type InflateRaw } from 'node:zlib';

/** Members whose compressed bytes are all buffered, up to this size, are inflated in one call (most WARC records). */
const SYNC_INPUT = 256 * 1024;
/** …and up to this much output; a larger member (or a bomb) goes through a streaming inflater with bounded chunks. */
const SYNC_OUTPUT = 16 * 1024 * 1024;
const OUT_CHUNK = 64 * 1024;
/** A member not complete in fewer buffered bytes than this waits for more input rather than streaming. */
const RETRY_BELOW = 64 * 1024;

const zlibError = (message: string, code: string): Error => Object.assign(new Error(message), { code });

/**
 * Decodes what `createGunzip` decodes, with its errors (a bad header, CRC or length check, a truncated member) and
 * its leniency (zero bytes after a member end the input), but one member at a time, so `memberAt` can say which
 * member a decompressed byte came from: the offset Common Crawl's index gives for a record. Zlib's gunzip moves from
 * member to member inside one call and does not report the boundaries.
 */
export class GzipMemberDecoder extends Transform {
  /** Compressed bytes not yet consumed, and their offset in the file. */
  #buf: Buffer = Buffer.alloc(0);
  #at = 0;
  #out = 0;
  #state: 'header' | 'body' | 'trailer' | 'done' = 'header';
  #crc = 0;
  #size = 0;
  /** Buffered bytes of the current member when inflating them in one call last found it incomplete. */
  #tried = 0;
  /** Member starts: decompressed and compressed offsets, ascending. */
  #starts: number[] = [];
  #from: number[] = [];
  #stream: { z: InflateRaw; ended: boolean; failed: Error | null } | null = null;

  constructor() {
    super({ readableHighWaterMark: OUT_CHUNK });
  }

  /** Compressed offset of the member holding decompressed byte `offset` (its last member past the end). */
  memberAt(offset: number): number {
    const s = this.#starts;
    let lo = 0;
    let hi = s.length - 1;
    if (hi < 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((s[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return this.#from[lo] as number;
  }

  override _destroy(err: Error | null, cb: (error?: Error | null) => void): void {
    // A reader stopped mid-member (a cancelled run) frees the member's inflater now, not at collection.
    this.#stream?.z.destroy();
    this.#stream = null;
    cb(err);
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#buf = this.#buf.length === 0 ? chunk : Buffer.concat([this.#buf, chunk]);
    this.#drain(false).then(() => cb(), cb);
  }

  override _flush(cb: TransformCallback): void {
    this.#drain(true).then(() => {
      if (this.#state === 'header' || this.#state === 'done') cb();
      else cb(zlibError('unexpected end of file', 'Z_BUF_ERROR'));
    }, cb);
  }

  #emit(data: Buffer): void {
    if (data.length === 0) return;
    this.#crc = crc32(data, this.#crc);
    this.#size = (this.#size + data.length) >>> 0;
    this.#out += data.length;
    for (let i = 0; i < data.length; i += OUT_CHUNK) this.push(data.subarray(i, i + OUT_CHUNK));
  }

  #consume(n: number): void {
    this.#buf = this.#buf.subarray(n);
    this.#at += n;
  }

  /** Decodes as far as the buffered bytes allow (`end`: no more will come). */
  async #drain(end: boolean): Promise<void> {
    for (;;) {
      if (this.#state === 'done') return void (this.#buf = Buffer.alloc(0));
      if (this.#state === 'header') {
        if (this.#buf.length === 0) return;
        // Zero bytes after a member are padding, as zlib's gunzip treats them: the input ends there.
        if (this.#buf[0] === 0 && this.#starts.length > 0) return void (this.#state = 'done');
        // The member starts here even if its header is cut short: a truncated input is placed at it.
        if (this.#from.at(-1) !== this.#at) {
          this.#starts.push(this.#out);
          this.#from.push(this.#at);
        }
        const len = gzipHeaderLength(this.#buf);
        if (len === 0) {
          if (end) throw zlibError('unexpected end of file', 'Z_BUF_ERROR');
          return;
        }
        this.#consume(len);
        this.#crc = 0;
        this.#size = 0;
        this.#tried = 0;
        this.#state = 'body';
      }
      if (this.#state === 'body' && !(await this.#body(end))) return;
      if (this.#state === 'trailer') {
        if (this.#buf.length < 8) {
          if (end) throw zlibError('unexpected end of file', 'Z_BUF_ERROR');
          return;
        }
        if (this.#buf.readUInt32LE(0) !== this.#crc >>> 0) throw zlibError('incorrect data check', 'Z_DATA_ERROR');
        if (this.#buf.readUInt32LE(4) !== this.#size) throw zlibError('incorrect length check', 'Z_DATA_ERROR');
        this.#consume(8);
        this.#state = 'header';
      }
    }
  }

  /** Inflates the member's deflate data; true once it ended (then in the trailer state), false to wait for input. */
  async #body(end: boolean): Promise<boolean> {
    if (this.#stream === null && this.#buf.length <= SYNC_INPUT) {
      // Tried on fewer bytes: again once they doubled, so a member read in small chunks is not inflated per chunk.
      if (!end && this.#buf.length < 2 * this.#tried) return false;
      try {
        const r = inflateRawSync(this.#buf, { info: true, chunkSize: OUT_CHUNK, finishFlush: end ? constants.Z_FINISH : constants.Z_SYNC_FLUSH, maxOutputLength: SYNC_OUTPUT }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
        const used = r.engine.bytesWritten;
        // Input left over: the member ended in it. All used and more to come: the member goes on past the buffered
        // bytes. A short start of one (the last member of a read chunk) is inflated again once the next chunk is
        // here; a longer one is taken by a streaming inflater from its start.
        if (used < this.#buf.length || end) {
          this.#emit(r.buffer);
          this.#consume(used);
          this.#state = 'trailer';
          return true;
        }
        this.#tried = this.#buf.length;
        if (this.#buf.length < RETRY_BELOW) return false;
      } catch (e) {
        // Too much output for one call: stream it. Anything else is the data's error (zlib's own message).
        if (!(e instanceof RangeError) && (e as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') throw e;
      }
    }
    return this.#streamed(end);
  }

  /** The member through a streaming inflater (large or not yet complete in the buffer). */
  async #streamed(end: boolean): Promise<boolean> {
    let s = this.#stream;
    if (s === null) {
      const z = createInflateRaw({ chunkSize: OUT_CHUNK });
      s = this.#stream = { z, ended: false, failed: null };
      const st = s;
      z.on('data', (c: Buffer) => this.#emit(c));
      z.on('end', () => (st.ended = true));
      z.on('error', (e: Error) => (st.failed = e));
    }
    const input = this.#buf;
    const before = s.z.bytesWritten;
    if (input.length > 0) {
      // An inflater that fails on this input may never call the write callback: wake on 'error' too.
      await new Promise<void>((ok) => {
        const done = (): void => {
          s.z.off('error', done);
          ok();
        };
        s.z.once('error', done);
        s.z.write(input, done);
      });
    }
    if (end && !s.ended && s.failed === null) {
      s.z.end();
      await new Promise<void>((ok) => (s.ended || s.failed !== null ? ok() : (s.z.once('end', ok), s.z.once('error', () => ok()))));
    }
    // 'end' follows the last data on a later tick.
    await new Promise<void>((ok) => setImmediate(ok));
    if (s.failed !== null) {
      this.#stream = null;
      throw s.failed;
    }
    const used = s.z.bytesWritten - before;
    this.#consume(used);
    if (!s.ended && used === input.length) return false;
    s.z.destroy();
    this.#stream = null;
    this.#state = 'trailer';
    return true;
  }
}

const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/** Length of the gzip member header at the start of `b` (RFC 1952), 0 when incomplete; throws zlib's error on a bad one. */
export function gzipHeaderLength(b: Buffer): number {
  if ((b.length >= 1 && b[0] !== 0x1f) || (b.length >= 2 && b[1] !== 0x8b)) throw zlibError('incorrect header check', 'Z_DATA_ERROR');
  if (b.length >= 3 && b[2] !== 8) throw zlibError('unknown compression method', 'Z_DATA_ERROR');
  if (b.length >= 4 && (b[3] as number) & 0xe0) throw zlibError('unknown header flags set', 'Z_DATA_ERROR');
  if (b.length < 10) return 0;
  const flags = b[3] as number;
  let p = 10;
  if (flags & FEXTRA) {
    if (b.length < p + 2) return 0;
    p += 2 + b.readUInt16LE(p);
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if (!(flags & flag)) continue;
    const nul = b.indexOf(0, p);
    if (nul < 0) return 0;
    p = nul + 1;
  }
  if (flags & FHCRC) p += 2;
  return b.length >= p ? p : 0;
}
