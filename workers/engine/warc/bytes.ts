// A pull reader over a (decompressed) WARC byte stream: look ahead, find delimiters, take or discard blocks.
import type { Readable } from 'node:stream';

const HIGH_WATER = 4 << 20;

/**
 * Chunks are collected in a list and joined once when a caller needs more than the current buffer holds, so
 * reading a 20 MB block costs one copy, not one per chunk. A stream that ends with an error (a truncated gzip
 * member) ends the input: `truncated` says so, and the records before it stay readable.
 */
export class ByteReader {
  #buf: Buffer = Buffer.alloc(0);
  #pos = 0;
  #pending: Buffer[] = [];
  #pendingLen = 0;
  /** Chunks delivered by the stream and not yet pulled. */
  #queue: Buffer[] = [];
  #queued = 0;
  #ended = false;
  #eof = false;
  #wake: (() => void) | null = null;
  readonly #stream: Readable;
  /** Offset of the next unread byte in the decompressed stream. */
  offset = 0;
  truncated: Error | null = null;

  constructor(stream: Readable) {
    this.#stream = stream;
    // Events, not the async iterator: the iterator throws on a stream error at once and drops the chunks
    // decoded before it, which are the whole records ahead of a truncated gzip member.
    stream.on('data', (c: Buffer) => {
      this.#queue.push(c);
      this.#queued += c.length;
      if (this.#queued > HIGH_WATER) stream.pause();
      this.#notify();
    });
    stream.on('end', () => {
      this.#ended = true;
      this.#notify();
    });
    stream.on('error', (e: Error) => {
      this.truncated = e;
      this.#ended = true;
      this.#notify();
    });
    if (stream.errored) {
      this.truncated = stream.errored;
      this.#ended = true;
    } else if (stream.readableEnded) this.#ended = true;
  }

  #notify(): void {
    const w = this.#wake;
    this.#wake = null;
    w?.();
  }

  get buffered(): number {
    return this.#buf.length - this.#pos + this.#pendingLen;
  }

  get atEnd(): boolean {
    return this.#eof && this.buffered === 0;
  }

  async #pull(): Promise<boolean> {
    for (;;) {
      const c = this.#queue.shift();
      if (c !== undefined) {
        this.#queued -= c.length;
        if (this.#stream.isPaused() && this.#queued < HIGH_WATER / 2) this.#stream.resume();
        this.#pending.push(c);
        this.#pendingLen += c.length;
        return true;
      }
      if (this.#ended) {
        this.#eof = true;
        return false;
      }
      await new Promise<void>((ok) => (this.#wake = ok));
    }
  }

  #join(): void {
    if (this.#pendingLen === 0) return;
    this.#buf = Buffer.concat([this.#buf.subarray(this.#pos), ...this.#pending]);
    this.#pos = 0;
    this.#pending = [];
    this.#pendingLen = 0;
  }

  /** True when `n` bytes are available (false: the input ended first). */
  async ensure(n: number): Promise<boolean> {
    while (this.buffered < n) if (!(await this.#pull())) break;
    if (this.#buf.length - this.#pos < n) this.#join();
    return this.buffered >= n;
  }

  /** The buffered bytes from the read position, after making at least `n` available when the input has them. */
  async peek(n: number): Promise<Buffer> {
    await this.ensure(n);
    return this.#buf.subarray(this.#pos, this.#pos + n);
  }

  /** Position of `needle` relative to the read position, searching at most `limit` bytes; -1 when absent. */
  async indexOf(needle: Buffer, limit: number): Promise<number> {
    let from = 0;
    for (;;) {
      this.#join();
      const hay = this.#buf.subarray(this.#pos, this.#pos + limit);
      const at = hay.indexOf(needle, from);
      if (at >= 0) return at;
      if (hay.length >= limit || !(await this.#pull())) return -1;
      from = Math.max(0, hay.length - needle.length + 1);
    }
  }

  /** The next `n` bytes (a view, valid until the next call); fewer when the input ended. */
  async take(n: number): Promise<Buffer> {
    await this.ensure(n);
    const out = this.#buf.subarray(this.#pos, this.#pos + n);
    this.#pos += out.length;
    this.offset += out.length;
    return out;
  }

  /** Discards `n` bytes without keeping them (an oversized record); returns how many there were. */
  async skip(n: number): Promise<number> {
    let left = n;
    for (;;) {
      this.#join();
      const here = Math.min(left, this.#buf.length - this.#pos);
      this.#pos += here;
      this.offset += here;
      left -= here;
      if (left === 0 || !(await this.#pull())) return n - left;
    }
  }
}
