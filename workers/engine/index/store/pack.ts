// Packs named typed arrays into one zstd-compressed Buffer (a SQLite BLOB) and back, so per-file columns are one row each.
import { createRequire } from 'node:module';
import type * as ZstdNapi from 'zstd-napi';

const zstd = createRequire(import.meta.url)('zstd-napi') as typeof ZstdNapi;

export type Packable = Uint8Array | Uint32Array | Int32Array | Float64Array;
type Kind = 'u8' | 'u32' | 'i32' | 'f64';

interface Entry {
  name: string;
  kind: Kind;
  length: number;
  offset: number;
  /** A u32 array stored as successive differences (mod 2^32): ascending ordinals become runs of 1 that zstd all but removes. */
  delta?: 1;
}

const kindOf = (a: Packable): Kind =>
  a instanceof Float64Array ? 'f64' : a instanceof Uint32Array ? 'u32' : a instanceof Int32Array ? 'i32' : 'u8';

/**
 * Layout: u32 header length, JSON header, then each array 8-byte aligned; the whole compressed with
 * zstd level 1 — columns are highly regular (sequential ordinals, one tag, offsets of 0), so blobs
 * shrink several times and the index build writes (and the preview reads) far less.
 */
export function pack(arrays: Record<string, Packable>, delta: readonly string[] = []): Buffer {
  const entries: Entry[] = [];
  let offset = 0;
  for (const [name, a] of Object.entries(arrays)) {
    const d = delta.includes(name);
    if (d && !(a instanceof Uint32Array)) throw new Error(`internal: delta encoding is for u32 arrays, not '${name}'`);
    entries.push({ name, kind: kindOf(a), length: a.length, offset, ...(d ? { delta: 1 as const } : {}) });
    offset += Math.ceil(a.byteLength / 8) * 8;
  }
  const header = Buffer.from(JSON.stringify(entries));
  const start = Math.ceil((4 + header.length) / 8) * 8;
  const out = Buffer.alloc(start + offset);
  out.writeUInt32LE(header.length, 0);
  header.copy(out, 4);
  for (const e of entries) {
    const a = arrays[e.name] as Packable;
    if (e.delta === 1) differences(a as Uint32Array, new Uint32Array(out.buffer, out.byteOffset + start + e.offset, a.length));
    else out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), start + e.offset);
  }
  return zstd.compress(out, { compressionLevel: 1 });
}

export interface Unpacked {
  u8(name: string): Uint8Array;
  u32(name: string): Uint32Array;
  i32(name: string): Int32Array;
  f64(name: string): Float64Array;
  has(name: string): boolean;
}

/** Copies each array out of the decompressed blob (whose byteOffset need not be aligned). */
export function unpack(blob: Uint8Array): Unpacked {
  const buf = zstd.decompress(blob);
  const headerLen = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).readUInt32LE(0);
  const entries = JSON.parse(Buffer.from(buf.buffer, buf.byteOffset + 4, headerLen).toString('utf8')) as Entry[];
  const start = Math.ceil((4 + headerLen) / 8) * 8;
  const byName = new Map(entries.map((e) => [e.name, e]));
  const get = <T extends Packable>(name: string, kind: Kind, make: (b: ArrayBuffer, n: number) => T): T => {
    const e = byName.get(name);
    if (e === undefined || e.kind !== kind) throw new Error(`packed blob has no ${kind} array '${name}'`);
    const bytes = e.length * (kind === 'f64' ? 8 : kind === 'u8' ? 1 : 4);
    const copy = new ArrayBuffer(bytes);
    new Uint8Array(copy).set(buf.subarray(start + e.offset, start + e.offset + bytes));
    const out = make(copy, e.length);
    if (e.delta === 1) sums(out as Uint32Array);
    return out;
  };
  return {
    u8: (n) => get(n, 'u8', (b, len) => new Uint8Array(b, 0, len)),
    u32: (n) => get(n, 'u32', (b, len) => new Uint32Array(b, 0, len)),
    i32: (n) => get(n, 'i32', (b, len) => new Int32Array(b, 0, len)),
    f64: (n) => get(n, 'f64', (b, len) => new Float64Array(b, 0, len)),
    has: (n) => byName.has(n),
  };
}

/** `to[i] = from[i] - from[i - 1]` (mod 2^32; from[-1] = 0). */
function differences(from: Uint32Array, to: Uint32Array): void {
  let last = 0;
  for (let i = 0; i < from.length; i++) {
    const v = from[i] as number;
    to[i] = v - last;
    last = v;
  }
}

/** Undoes `differences` in place. */
function sums(a: Uint32Array): void {
  let acc = 0;
  for (let i = 0; i < a.length; i++) {
    acc = (acc + (a[i] as number)) >>> 0;
    a[i] = acc;
  }
}
