// Token → value lookups straight from a span of a line: no substring is cut unless the token is new.

const SLOTS = 1 << 19;
/** Entries before the table is emptied (it stays under 60 % full, and a stream of fresh tokens stays bounded). */
const LIMIT = 300_000;

/**
 * Open addressing on a hash the caller computes while it scans the token (`hashStep` per UTF-16 unit, from
 * `HASH_START`), checked against the stored token unit by unit. A Map would need the token as a string first:
 * one allocation and one more hash per token of every document.
 */
export class TokenCache<V> {
  private hashes = new Int32Array(SLOTS);
  private keys: (string | undefined)[] = new Array<string | undefined>(SLOTS);
  private values: (V | undefined)[] = new Array<V | undefined>(SLOTS);
  private size = 0;

  /** The value of `line[start, end)` (whose hash is `h`), made by `make(token)` the first time. */
  get(line: string, start: number, end: number, h: number, make: (token: string) => V): V {
    const mask = SLOTS - 1;
    const len = end - start;
    let i = Math.imul(h, 0x9e3779b1) >>> 13 & mask;
    for (;;) {
      const key = this.keys[i];
      if (key === undefined) break;
      if (this.hashes[i] === h && key.length === len && same(key, line, start)) return this.values[i] as V;
      i = (i + 1) & mask;
    }
    if (this.size >= LIMIT) {
      this.clear();
      return this.get(line, start, end, h, make);
    }
    const token = line.slice(start, end);
    const value = make(token);
    this.keys[i] = token;
    this.hashes[i] = h;
    this.values[i] = value;
    this.size++;
    return value;
  }

  private clear(): void {
    this.hashes = new Int32Array(SLOTS);
    this.keys = new Array<string | undefined>(SLOTS);
    this.values = new Array<V | undefined>(SLOTS);
    this.size = 0;
  }
}

function same(key: string, line: string, start: number): boolean {
  for (let k = 0; k < key.length; k++) if (key.charCodeAt(k) !== line.charCodeAt(start + k)) return false;
  return true;
}

export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, unit: number): number => Math.imul(h ^ unit, 0x01000193);
