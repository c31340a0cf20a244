// Walks a fastText model file's layout to find its expected length: fastText never checks for truncation.
import fs from 'node:fs';

/** Sequential little-endian reader over a file descriptor, buffered, that tolerates reading past EOF. */
class Reader {
  private buf = Buffer.alloc(1 << 16);
  private start = 0; // file offset of buf[0]
  private len = 0;
  pos: number;

  constructor(
    private readonly fd: number,
    private readonly size: number,
    pos: number,
  ) {
    this.pos = pos;
  }

  /** Bytes at `pos`, or undefined once past the end of the file. */
  private bytes(n: number): Buffer | undefined {
    if (this.pos + n > this.size) return undefined;
    if (this.pos < this.start || this.pos + n > this.start + this.len) {
      if (n > this.buf.length) this.buf = Buffer.alloc(n);
      this.start = this.pos;
      this.len = fs.readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
    }
    const off = this.pos - this.start;
    this.pos += n;
    return this.buf.subarray(off, off + n);
  }

  i8 = (): number | undefined => this.bytes(1)?.readInt8(0);
  i32 = (): number | undefined => this.bytes(4)?.readInt32LE(0);
  i64 = (): number | undefined => {
    const b = this.bytes(8);
    return b === undefined ? undefined : Number(b.readBigInt64LE(0));
  };
  skip(n: number): void {
    this.pos += n;
  }
  /** Skips a NUL-terminated string; false when the file ends inside it. */
  cstring(): boolean {
    for (;;) {
      if (this.pos >= this.size) return false;
      if (this.pos < this.start || this.pos >= this.start + this.len) {
        this.start = this.pos;
        this.len = fs.readSync(this.fd, this.buf, 0, this.buf.length, this.pos);
      }
      // indexOf on the buffer itself: a subarray per string was most of the walk over a large dictionary.
      const nul = this.buf.indexOf(0, this.pos - this.start);
      if (nul !== -1 && nul < this.len) {
        this.pos = this.start + nul + 1;
        return true;
      }
      this.pos = this.start + this.len;
    }
  }
}

/**
 * The length fastText's `loadModel` would consume (`Args`, `Dictionary`, `DenseMatrix` or
 * `QuantMatrix` + `ProductQuantizer` layouts of fastText 0.9), or `Infinity` when the file ends
 * before that length is known. `headerBytes` is where the dictionary starts.
 */
export function expectedModelLength(fd: number, size: number, headerBytes: number): number {
  const r = new Reader(fd, size, headerBytes);
  const nEntries = r.i32();
  r.skip(4 + 4 + 8); // nwords, nlabels, ntokens
  const pruneIdx = r.i64();
  if (nEntries === undefined || pruneIdx === undefined || nEntries < 0) return Infinity;
  for (let i = 0; i < nEntries; i++) {
    if (!r.cstring()) return Infinity;
    r.skip(8 + 1); // count, entry type
  }
  r.skip(Math.max(pruneIdx, 0) * 8);
  const quantInput = r.i8();
  if (quantInput === undefined || !matrix(r, quantInput !== 0)) return Infinity;
  const qout = r.i8();
  if (qout === undefined || !matrix(r, quantInput !== 0 && qout !== 0)) return Infinity;
  return r.pos;
}

/** Advances past one matrix; false when a size field lies past the end of the file. */
function matrix(r: Reader, quantised: boolean): boolean {
  if (!quantised) {
    const m = r.i64();
    const n = r.i64();
    if (m === undefined || n === undefined) return false;
    r.skip(m * n * 4);
    return true;
  }
  const qnorm = r.i8();
  const m = r.i64();
  r.skip(8); // n
  const codeSize = r.i32();
  if (qnorm === undefined || m === undefined || codeSize === undefined) return false;
  r.skip(codeSize);
  if (!productQuantizer(r)) return false;
  if (qnorm !== 0) {
    r.skip(m);
    return productQuantizer(r);
  }
  return true;
}

function productQuantizer(r: Reader): boolean {
  const dim = r.i32();
  r.skip(12); // nsubq, dsub, lastdsub
  if (dim === undefined) return false;
  r.skip(dim * 256 * 4); // centroids: dim × ksub (2^8) floats
  return true;
}
