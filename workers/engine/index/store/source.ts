// Synchronous random access to lines of dataset files (documents and attributes) through a decoded-file cache.
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import type * as ZstdNapi from 'zstd-napi';
import { AssayError } from '../../errors.js';
import { chooseReadCodec } from '../../io/index.js';

const zstd = createRequire(import.meta.url)('zstd-napi') as typeof ZstdNapi;

interface Decoded {
  buf: Buffer;
  /** starts[i] = byte offset of line i; starts[count] = end of the last line's terminator. */
  starts: Float64Array;
  count: number;
}

/** What the index recorded about a file, to notice that it changed or vanished since. */
export interface Expected {
  size: number;
  mtime: number;
}

/**
 * Whole files are decoded (gzip/zstd have no random access) and kept in a small LRU, so reading a
 * page of documents from one file decodes it once. Documents and their attribute lines are
 * addressed by line number, which the index guarantees are aligned.
 */
export class SourceCache {
  private readonly cache = new Map<string, Decoded>();
  private held = 0;

  constructor(
    private readonly root: string,
    private readonly budgetBytes = 128 * 1024 * 1024,
    /** Refuses a file before it is read (the app: one a symlink takes outside the workspace). */
    private readonly checkPath?: (path: string, field: string) => void,
  ) {}

  /** Line `ord` (0-based) of `rel`, as a string. */
  line(rel: string, ord: number, expected?: Expected): string {
    const d = this.decoded(rel, expected);
    if (ord < 0 || ord >= d.count) {
      throw new AssayError('IO', `has no line ${ord + 1} (${d.count} lines): the dataset changed since it was indexed; re-run \`assay index ${this.root}\``, { file: join(this.root, rel) });
    }
    let end = d.starts[ord + 1] as number;
    const start = d.starts[ord] as number;
    if (end > start && d.buf[end - 1] === 0x0a) end--;
    return d.buf.toString('utf8', start, end);
  }

  clear(): void {
    this.cache.clear();
    this.held = 0;
  }

  private decoded(rel: string, expected: Expected | undefined): Decoded {
    const hit = this.cache.get(rel);
    if (hit !== undefined) {
      this.cache.delete(rel);
      this.cache.set(rel, hit);
      return hit;
    }
    const abs = join(this.root, rel);
    this.checkPath?.(abs, 'file');
    const st = statSync(abs, { throwIfNoEntry: false });
    if (st === undefined) {
      throw new AssayError('IO', `is missing: the dataset changed (or moved) since it was indexed; re-run \`assay index ${this.root}\``, { file: abs });
    }
    if (expected !== undefined && (st.size !== expected.size || st.mtimeMs !== expected.mtime)) {
      throw new AssayError('IO', `changed since it was indexed; re-run \`assay index ${this.root}\``, { file: abs });
    }
    const d = decode(abs);
    this.cache.set(rel, d);
    this.held += d.buf.length + d.starts.byteLength;
    for (const [k, v] of this.cache) {
      if (this.held <= this.budgetBytes || k === rel) break;
      this.cache.delete(k);
      this.held -= v.buf.length + v.starts.byteLength;
    }
    return d;
  }
}

function decode(abs: string): Decoded {
  let buf: Buffer;
  try {
    const head = Buffer.alloc(4);
    const fd = openSync(abs, 'r');
    try {
      readSync(fd, head, 0, 4, 0);
    } finally {
      closeSync(fd);
    }
    const raw = readFileSync(abs);
    const codec = raw.length === 0 ? 'plain' : chooseReadCodec(abs, head.subarray(0, Math.min(4, raw.length)));
    buf = codec === 'gzip' ? gunzipSync(raw) : codec === 'zstd' ? zstd.decompress(raw) : raw;
  } catch (e) {
    throw new AssayError('IO', `cannot read: ${(e as Error).message}`, { file: abs, cause: e });
  }
  const starts: number[] = [0];
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) starts.push(i + 1);
  if ((starts[starts.length - 1] as number) < buf.length) starts.push(buf.length);
  return { buf, starts: Float64Array.from(starts), count: starts.length - 1 };
}
