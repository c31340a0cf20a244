// Fixed-size spill records (band key, document index) appended per bucket to temp files, and read back in chunks.
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import { AssayError } from '../../errors.js';

/** Record: u32 key low lane, u32 key high lane, u32 document index (little-endian, 12 bytes). */
export const RECORD = 12;
const BUF_RECORDS = 64 * 1024;

/** Append-only record files with a write buffer each (sync I/O: this runs in a worker, and it is ~2x faster). */
export class RecordFiles {
  readonly #fds: number[];
  readonly #bufs: Uint32Array[];
  readonly #fill: number[];
  readonly counts: number[];

  constructor(readonly paths: readonly string[]) {
    this.#fds = paths.map((p) => openFile(p, 'w'));
    this.#bufs = paths.map(() => new Uint32Array(BUF_RECORDS * 3));
    this.#fill = paths.map(() => 0);
    this.counts = paths.map(() => 0);
  }

  add(file: number, lo: number, hi: number, doc: number): void {
    const buf = this.#bufs[file] as Uint32Array;
    let at = this.#fill[file] as number;
    buf[at++] = lo;
    buf[at++] = hi;
    buf[at++] = doc;
    this.#fill[file] = at;
    this.counts[file] = (this.counts[file] as number) + 1;
    if (at === buf.length) this.#flush(file);
  }

  #flush(file: number): void {
    const n = this.#fill[file] as number;
    if (n === 0) return;
    const buf = this.#bufs[file] as Uint32Array;
    const bytes = new Uint8Array(buf.buffer, 0, n * 4);
    try {
      for (let off = 0; off < bytes.length; ) off += writeSync(this.#fds[file] as number, bytes, off);
    } catch (e) {
      throw new AssayError('IO', `cannot write MinHash spill file: ${(e as Error).message}`, { file: this.paths[file], cause: e });
    }
    this.#fill[file] = 0;
  }

  /** Flushes and closes every file. */
  close(): void {
    for (let i = 0; i < this.#fds.length; i++) this.#flush(i);
    this.abandon();
  }

  /** Closes without flushing (on failure; the caller deletes the work dir). */
  abandon(): void {
    for (const fd of this.#fds.splice(0)) closeSync(fd);
  }
}

function openFile(path: string, flags: 'r' | 'w'): number {
  try {
    return openSync(path, flags);
  } catch (e) {
    throw new AssayError('IO', `cannot open MinHash spill file: ${(e as Error).message}`, { file: path, cause: e });
  }
}

/** Every record of a spill file, in chunks of at most `chunkRecords` (the view is reused between chunks). */
export function* readRecords(path: string, chunkRecords = BUF_RECORDS): Generator<Uint32Array> {
  const fd = openFile(path, 'r');
  const buf = new Uint32Array(chunkRecords * 3);
  const bytes = new Uint8Array(buf.buffer);
  try {
    for (;;) {
      let got = 0;
      while (got < bytes.length) {
        const n = readSync(fd, bytes, got, bytes.length - got, null);
        if (n === 0) break;
        got += n;
      }
      if (got % RECORD !== 0) throw new AssayError('IO', 'MinHash spill file is truncated', { file: path });
      if (got > 0) yield buf.subarray(0, got / 4);
      if (got < bytes.length) return;
    }
  } finally {
    closeSync(fd);
  }
}
