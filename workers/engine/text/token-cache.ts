// Token → list of ints, looked up straight from a span of a line's bytes: nothing is cut or allocated unless the token is new.

/** Entries before `trim` empties the table (a stream of fresh tokens stays bounded). */
export const CACHE_LIMIT = 300_000;
/** Pool ints (keys and lists) before `trim` empties the table, whatever the tokens' lengths. */
const POOL_LIMIT = 1 << 23;
/**
 * Slots and pool ints to start with, doubled as needed, so the table stays as small (and as cached) as the
 * vocabulary allows, and growing happens in the first lines, before the compiler optimizes `add`: a first growth
 * after that would throw its code away.
 */
const FIRST_SLOTS = 16;
const FIRST_POOL = 64;

/**
 * Open addressing on a hash the caller computes while it scans the token (`hashStep` per byte, from `HASH_START`).
 * A slot is two ints side by side, the hash and 1 + its entry's offset (0 when empty), so a probe reads one cache
 * line. Keys and lists live in one Int32Array: `[key length, key bytes…, list length, list…]` per entry, so a hit
 * is a hash compare, a byte-by-byte compare against the line and the list right after, with no object per token
 * for the collector to trace. A Map would need the token as a string first: one allocation and one more hash per
 * token of every document.
 */
export class TokenCache {
  private slots = new Int32Array(FIRST_SLOTS * 2);
  private mask = FIRST_SLOTS - 1;
  private pool = new Int32Array(FIRST_POOL);
  private used = 0;
  private size = 0;

  constructor(private readonly limit = CACHE_LIMIT) {}

  /** The ints behind the offsets `find` and `add` return: `lists[at]` is the length, the list follows. */
  get lists(): Int32Array {
    return this.pool;
  }

  /** Offset of the list of `line[start, end)` (whose hash is `h`), or -1 when the token is not cached. */
  find(line: Uint8Array, start: number, end: number, h: number): number {
    const len = end - start;
    const { pool, slots, mask } = this;
    for (let i = slotOf(h, mask); ; i = (i + 1) & mask) {
      const e = slots[2 * i + 1] as number;
      if (e === 0) return -1;
      if (slots[2 * i] === h && pool[e - 1] === len) {
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
    if (++this.size * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    this.place(h, e + 1);
    return at;
  }

  /**
   * Empties the table once it holds `limit` entries or its pool is past its bound. Called between lines, never
   * within one, so the offsets a line has collected stay valid while it is summed.
   */
  trim(): void {
    if (this.size < this.limit && this.used < POOL_LIMIT) return;
    this.slots = new Int32Array(FIRST_SLOTS * 2);
    this.mask = FIRST_SLOTS - 1;
    if (this.pool.length > POOL_LIMIT) this.pool = new Int32Array(FIRST_POOL);
    this.used = 0;
    this.size = 0;
  }

  private place(h: number, entry: number): void {
    const { slots, mask } = this;
    let i = slotOf(h, mask);
    while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = h;
    slots[2 * i + 1] = entry;
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.place(old[i] as number, old[i + 1] as number);
  }
}

const slotOf = (h: number, mask: number): number => (Math.imul(h, 0x9e3779b1) >>> 12) & mask;

export const HASH_START = 0x811c9dc5 | 0;
export const hashStep = (h: number, unit: number): number => Math.imul(h ^ unit, 0x01000193);
