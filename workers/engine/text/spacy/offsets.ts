// The tokenizer's output: token boundaries as typed arrays of UTF-16 offsets.

/** Token boundaries as UTF-16 offsets; whitespace tokens (runs other than one trailing space) included, like spaCy. */
export interface TokenOffsets {
  starts: Int32Array;
  ends: Int32Array;
}

/**
 * Growable pair of offset arrays (typed, so ten million tokens do not churn the garbage collector). The tokenizer
 * reuses two of them from text to text and hands out copies (`copy`): a typed array's backing store is allocated and
 * freed outside V8's heap, so two fresh buffers per text, and their doublings on long ones, cost more than the copy.
 */
export class OffsetBuffer {
  starts: Int32Array;
  ends: Int32Array;
  length = 0;

  constructor(capacity: number) {
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
  }

  push(start: number, end: number): void {
    if (this.length === this.starts.length) this.grow();
    this.starts[this.length] = start;
    this.ends[this.length++] = end;
  }

  /** Appends entries [from, to) of `src`. */
  append(src: OffsetBuffer, from: number, to: number): void {
    this.reserve(this.length + to - from);
    this.starts.set(src.starts.subarray(from, to), this.length);
    this.ends.set(src.ends.subarray(from, to), this.length);
    this.length += to - from;
  }

  /** Room for `capacity` entries in all (the entries so far kept), for a writer that does not push. */
  reserve(capacity: number): void {
    let size = Math.max(this.starts.length, 16);
    while (size < capacity) size *= 2;
    if (size > this.starts.length) this.resize(size);
  }

  /** Out of line, so the many inlined copies of push stay small. */
  private grow(): void {
    this.resize(this.starts.length * 2);
  }

  private resize(size: number): void {
    const starts = new Int32Array(size);
    starts.set(this.starts.subarray(0, this.length));
    this.starts = starts;
    const ends = new Int32Array(size);
    ends.set(this.ends.subarray(0, this.length));
    this.ends = ends;
  }

  /** The offsets so far in arrays of their own (one allocation for both), so this buffer can be reused. */
  copy(): TokenOffsets {
    const n = this.length;
    const both = new Int32Array(2 * n);
    both.set(this.starts.subarray(0, n));
    both.set(this.ends.subarray(0, n), n);
    return { starts: both.subarray(0, n), ends: both.subarray(n) };
  }
}
