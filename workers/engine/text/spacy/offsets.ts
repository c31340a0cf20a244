// The tokenizer's output: token boundaries as typed arrays of UTF-16 offsets.

/** Token boundaries as UTF-16 offsets; whitespace tokens (runs other than one trailing space) included, like spaCy. */
export interface TokenOffsets {
  starts: Int32Array;
  ends: Int32Array;
}

/** Growable pair of offset arrays (typed, so ten million tokens do not churn the garbage collector). */
export class OffsetBuffer {
  starts: Int32Array;
  ends: Int32Array;
  length = 0;

  /** Sized to the text (about one token per 4 units): many callers tokenize one short line at a time. */
  constructor(textLength: number) {
    const size = Math.min(1024, (textLength >> 2) + 8);
    this.starts = new Int32Array(size);
    this.ends = new Int32Array(size);
  }

  push(start: number, end: number): void {
    if (this.length === this.starts.length) this.grow();
    this.starts[this.length] = start;
    this.ends[this.length++] = end;
  }

  /** Out of line, so the many inlined copies of push stay small. */
  private grow(): void {
    const starts = new Int32Array(this.starts.length * 2);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Int32Array(this.ends.length * 2);
    ends.set(this.ends);
    this.ends = ends;
  }

  done(): TokenOffsets {
    return { starts: this.starts.subarray(0, this.length), ends: this.ends.subarray(0, this.length) };
  }
}
