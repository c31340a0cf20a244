// Append-only typed arrays for millions of values (plain number arrays cost a lot of garbage at that size).

/*
 * One class per element kind rather than one generic: a push site that sees one element kind stays
 * monomorphic, and V8 compiles it to a plain store (a shared generic `push` measured ≈ 3× slower).
 */

export class GrowU8 {
  n = 0;
  private buf = new Uint8Array(64);

  push(v: number): void {
    if (this.n === this.buf.length) {
      const next = new Uint8Array(this.n * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = v;
  }

  get(i: number): number {
    return this.buf[i] as number;
  }

  done(): Uint8Array {
    return this.buf.subarray(0, this.n);
  }
}

export class GrowU32 {
  n = 0;
  private buf = new Uint32Array(64);

  push(v: number): void {
    if (this.n === this.buf.length) {
      const next = new Uint32Array(this.n * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.n++] = v;
  }

  get(i: number): number {
    return this.buf[i] as number;
  }

  done(): Uint32Array {
    return this.buf.subarray(0, this.n);
  }
}
