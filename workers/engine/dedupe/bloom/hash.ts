// xxhash-wasm loading and Dolma's key encoding (a Rust VecDeque<&str> hashed as length, then bytes + 0xFF each).
import { createRequire } from 'node:module';
import type { XXHashAPI } from 'xxhash-wasm';

let api: Promise<XXHashAPI> | undefined;

/** The wasm hasher is instantiated once per process and shared by every filter. */
export function loadXxhash(): Promise<XXHashAPI> {
  // The package's ESM build resolves fine, but tsc's NodeNext view of its types is CJS-only.
  api ??= (createRequire(import.meta.url)('xxhash-wasm') as () => Promise<XXHashAPI>)();
  return api;
}

/**
 * Encodes keys into one reusable buffer: u64 LE part count, then each part's UTF-8 bytes and 0xFF
 * (a byte UTF-8 never contains), as Rust's `Hash` for `VecDeque<&str>` feeds its hasher. Keys are
 * therefore exact strings, and a 1-word n-gram differs from a paragraph only if they are equal.
 */
export class KeyEncoder {
  #buf = Buffer.allocUnsafe(64 * 1024);

  encode(parts: readonly string[]): Uint8Array {
    let need = 8;
    for (const p of parts) need += p.length * 3 + 1;
    if (need > this.#buf.length) this.#buf = Buffer.allocUnsafe(Math.max(need, this.#buf.length * 2));
    const buf = this.#buf;
    buf.writeUInt32LE(parts.length, 0);
    buf.writeUInt32LE(0, 4);
    let off = 8;
    for (const p of parts) {
      off += buf.write(p, off, 'utf8');
      buf[off++] = 0xff;
    }
    return buf.subarray(0, off);
  }

  one(key: string): Uint8Array {
    const buf = this.#ensure(key.length * 3 + 9);
    buf.writeUInt32LE(1, 0);
    buf.writeUInt32LE(0, 4);
    const off = 8 + buf.write(key, 8, 'utf8');
    buf[off] = 0xff;
    return buf.subarray(0, off + 1);
  }

  #ensure(n: number): Buffer {
    if (n > this.#buf.length) this.#buf = Buffer.allocUnsafe(Math.max(n, this.#buf.length * 2));
    return this.#buf;
  }
}

/** splitmix64: fixed, well-mixed seeds, so two filters built from the same config hash identically. */
export function deriveSeeds(k: number): bigint[] {
  const MASK = (1n << 64n) - 1n;
  let state = 0x5a17_d0d1_a55a_7001n;
  const out: bigint[] = [];
  for (let i = 0; i < k; i++) {
    state = (state + 0x9e3779b97f4a7c15n) & MASK;
    let z = state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    out.push(z ^ (z >> 31n));
  }
  return out;
}
