// The records the addon's line readers write (native/attrs.c): one offset per line, then each line's record, its first int 1 when the line has the last line's member names.

/**
 * Calls `read(out)` until its records fit: it returns -1 when `out`, or what else it writes to (`grow` makes that
 * bigger), is too small. Returns the array that holds them.
 */
export function readRecords(out: Int32Array, lines: number, read: (out: Int32Array) => number, grow?: () => void): Int32Array {
  for (let o = out.length < lines ? new Int32Array(2 * lines) : out; ; o = new Int32Array(2 * o.length)) {
    if (read(o) >= 0) return o;
    grow?.();
  }
}

/** Each line's shape (null where the reader left the line to JSON.parse): the last line's when the record says so. */
export function shapesOf<S>(out: Int32Array, lines: readonly (string | null)[], shapeOf: (line: string, o: number) => S | null): (S | null)[] {
  const shapes = new Array<S | null>(lines.length).fill(null);
  let last: S | null = null;
  for (let i = 0; i < lines.length; i++) {
    const o = out[i] as number;
    if (o < 0) continue;
    last = out[o] === 1 && last !== null ? last : shapeOf(lines[i] as string, o);
    shapes[i] = last;
  }
  return shapes;
}
