// Pull lines by line number from a line-batch stream, so attribute files advance in lockstep with documents.
import type { LineBatch } from '../io/index.js';

/**
 * The batches of `source`, each next one asked for as soon as the current one is handed out: the reader's
 * gunzip (on libuv's pool) then inflates batch k + 1 while the main thread evaluates batch k. Only for
 * readers that report problems by throwing (not under --skip-bad-lines, whose reports must stay in line
 * order with the mixer's own); a failure still arrives after every batch before it.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  let next = it.next();
  try {
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = it.next();
      // Observed at the next await; until then a rejection must not count as unhandled.
      next.catch(() => undefined);
      yield r.value;
    }
  } finally {
    await it.return?.();
  }
}

/** A line the reader skipped (bad UTF-8 under --skip-bad-lines): present in the file, absent here. */
export const SKIPPED = null;

export class LineCursor {
  #it: AsyncIterator<LineBatch>;
  #batch: LineBatch | null = null;
  #pos = 0;
  #done = false;
  /** Line number of the last line handed out (0 before the first). */
  taken = 0;

  constructor(
    readonly file: string,
    source: AsyncIterable<LineBatch>,
  ) {
    this.#it = source[Symbol.asyncIterator]();
  }

  /** The next `n` lines by number; `SKIPPED` for lines the reader dropped; fewer only at end of file. */
  async take(n: number): Promise<(string | null)[]> {
    const out: (string | null)[] = [];
    while (out.length < n) {
      if (this.#batch === null || this.#pos >= this.#batch.lines.length) {
        if (!(await this.#load())) break;
        continue;
      }
      const batch = this.#batch;
      const next = this.taken + 1;
      const lineOfPos = batch.firstLine + this.#pos;
      if (lineOfPos > next) {
        // A gap: the reader skipped these lines; report them as SKIPPED to keep numbering aligned.
        const gap = Math.min(lineOfPos - next, n - out.length);
        for (let g = 0; g < gap; g++) out.push(SKIPPED);
        this.taken += gap;
        continue;
      }
      const end = Math.min(batch.lines.length, this.#pos + (n - out.length));
      for (let i = this.#pos; i < end; i++) out.push(batch.lines[i] as string);
      this.taken += end - this.#pos;
      this.#pos = end;
    }
    return out;
  }

  async #load(): Promise<boolean> {
    if (this.#done) return false;
    const next = await this.#it.next();
    if (next.done) {
      this.#done = true;
      return false;
    }
    this.#batch = next.value;
    this.#pos = 0;
    return true;
  }

  /** True when no line is left (reads ahead one batch if needed). */
  async atEnd(): Promise<boolean> {
    while (this.#batch === null || this.#pos >= this.#batch.lines.length) {
      if (!(await this.#load())) return true;
    }
    return false;
  }

  async close(): Promise<void> {
    await this.#it.return?.();
  }
}
