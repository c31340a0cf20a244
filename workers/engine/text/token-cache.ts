// Token → list of ints, looked up straight from a span of a line's bytes: nothing is cut or allocated unless the token is new.

const SLOTS = 1 << 19;
const MASK = SLOTS - 1;
/** Entries before `trim` empties the table (it stays under 60 % full, and a stream of fresh tokens stays bounded). */
const LIMIT = 300_000;
/** Pool ints (keys and lists) before `trim` empties the table, whatever the tokens' lengths. */
const POOL_LIMIT = 1 << 23;

/**
 * Open addressing on a hash the caller computes while it scans the token (`hashStep` per byte, from `HASH_START`).
 * Keys and lists live in one Int32Array: `[key length, key bytes…, list length, list…]` per entry, so a hit is a
 * hash compare, a byte-by-byte compare against the line and the list right after, with no object per token for
 * the collector to trace. A Map would need the token as a string first: one allocation and one more hash per
 * token of every document.
 */
export class TokenCache {
  private readonly hashes = new Int32Array(SLOTS);
  /** 1 + offset of the slot's entry in `pool`; 0 marks an empty slot. */
  private readonly entries = new Int32Array(SLOTS);
  private pool = new Int32Array(1 << 16);
  private used = 0;
  private size = 0;

  constructor(private readonly limit = LIMIT) {}

  /** The ints behind the offsets `find` and `add` return: `lists[at]` is the length, the list follows. */
  get lists(): Int32Array {
    return this.pool;
  }

  /** Offset of the list of `line[start, end)` (whose hash is `h`), or -1 when the token is not cached. */
  find(line: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    const pool = this.pool;
    for (let i = slotOf(h); ; i = (i + 1) & MASK) {
      const e = this.entries[i] as number;
      if (e === 0) return -1;
      if (this.hashes[i] === h && pool[e - 1] === len) {
        let k = 0;
        while (k < len && pool[e + k] === line[start + k]) k++;
        if (k === len) return e + len;
      }
    }
  }

  /** Caches `list[0, n)` for `line[start, end)`, which `find` has just missed; the offset of its list. */
  add(line: Uint8Array, start: number, end: number, h: number, list: Int32Array, n: number): number {
    const len = end - start;
    const need = this.used + len + n + 2;
    if (need > this.pool.length) {
      const grown = new Int32Array(Math.max(need, this.pool.length * 2));
      grown.set(this.pool.subarray(0, this.used));
      this.pool = grown;
    }
    const pool = this.pool;
    const e = this.used;
    pool[e] = len;
    for (let k = 0; k < len; k++) pool[e + 1 + k] = line[start + k] as number;
    const at = e + 1 + len;
    pool[at] = n;
    for (let k = 0; k < n; k++) pool[at + 1 + k] = list[k] as number;
    this.used = need;
    let i = slotOf(h);
    while (this.entries[i] !== 0) i = (i + 1) & MASK;
    this.entries[i] = e + 1;
    this.hashes[i] = h;
    this.size++;
    return at;
  }

  /**
   * Empties the table once it holds `limit` entries or its pool is past its bound. Called between lines, never
   * within one, so the offsets a line has collected stay valid while it is summed.
   */
  trim(): void {
    if (this.size < this.limit && this.used < POOL_LIMIT) return;
    this.entries.fill(0);
    if (this.pool.length > POOL_LIMIT) this.pool = new Int32Array(1 << 16);
    this.used = 0;
    this.size = 0;
  }
}

const slotOf = (h: number): number => (Math.imul(h, 0x9e3779b1) >>> 13) & MASK;

export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, unit: number): number => Math.imul(h ^ unit, 0x01000193);
