// The bloom filter file: header (magic, version, k, m, seeds, checksum), a manifest of the inputs it holds, the bits.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { AssayError } from '../../errors.js';
import { writeFileAtomic, type WrittenFile } from '../../io/index.js';
import { BloomFilter } from './filter.js';
import { loadXxhash } from './hash.js';
import { MAX_BITS, MAX_K } from './sizing.js';

/*
 * Layout (all integers little-endian):
 *   0  8   magic "ASSAYBLM"
 *   8  4   format version (1)
 *   12 4   k
 *   16 8   m, bits (a multiple of 32)
 *   24 8   insertions
 *   32 8   xxhash64 (seed 0) of every byte from offset 40 to the end
 *   40 8k  seeds
 *   .. 4   manifest length L, then L bytes of manifest JSON, zero-padded to a multiple of 4
 *   .. m/8 bit array (u32 words)
 * Not Dolma's format: Dolma hashes with ahash under random seeds, which JS cannot reproduce.
 */
const MAGIC = Buffer.from('ASSAYBLM', 'latin1');
const DOLMA_MAGIC = 0x81f0f117;
export const FORMAT_VERSION = 1;
const FIXED = 40;

/** One input file whose keys the filter holds, with the output that was written for it. */
export interface ManifestEntry {
  input: string;
  size: number;
  mtimeMs: number;
  /** Hash of the dedupe settings the file was processed with. */
  fingerprint: string;
  output: string;
  outputSize: number;
  docs: number;
  /** sha256 of input and output as stored (run manifests list files a rerun keeps); absent in filters written before. */
  sha256?: string;
  outputSha256?: string;
  /** Estimated tokens of the file's texts (⌈UTF-8 bytes / 4⌉ each). */
  tokens?: number;
}

export interface BloomManifest {
  files: ManifestEntry[];
}

export interface LoadedFilter {
  filter: BloomFilter;
  manifest: BloomManifest;
  /** sha256 of the file as read (hashed from the bytes already in memory). */
  sha256: string;
}

if (endianness() !== 'LE') throw new AssayError('INTERNAL', 'bloom filter files assume a little-endian machine');

/** Writes the filter atomically; with `deferRename` the complete file stays at `<path>.tmp` until `promoteTemp(path)`. */
export async function saveFilter(path: string, filter: BloomFilter, manifest: BloomManifest, opts: { deferRename?: boolean } = {}): Promise<WrittenFile> {
  const api = await loadXxhash();
  const json = Buffer.from(JSON.stringify(manifest), 'utf8');
  const pad = (4 - (json.length % 4)) % 4;
  const head = Buffer.alloc(FIXED + 8 * filter.k + 4 + json.length + pad);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(FORMAT_VERSION, 8);
  head.writeUInt32LE(filter.k, 12);
  head.writeBigUInt64LE(BigInt(filter.m), 16);
  head.writeBigUInt64LE(BigInt(filter.insertions), 24);
  filter.seeds.forEach((s, i) => head.writeBigUInt64LE(s, FIXED + 8 * i));
  head.writeUInt32LE(json.length, FIXED + 8 * filter.k);
  json.copy(head, FIXED + 8 * filter.k + 4);
  const bits = Buffer.from(filter.words.buffer, filter.words.byteOffset, filter.words.byteLength);
  const sum = api.create64(0n).update(head.subarray(FIXED));
  for (let off = 0; off < bits.length; off += CHUNK) sum.update(bits.subarray(off, off + CHUNK));
  head.writeBigUInt64LE(sum.digest(), 32);
  return writeFileAtomic(path, Buffer.concat([head, bits]), { codec: 'plain', mkdir: true, ...opts });
}

const CHUNK = 16 * 1024 * 1024;

/** Loads and verifies a filter file; any damage is an IO error naming the file, never a silent reuse. */
export async function loadFilter(path: string): Promise<LoadedFilter> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    throw new AssayError('IO', `cannot read the bloom filter: ${(e as Error).message}`, { file: path, cause: e });
  }
  const bad = (what: string): AssayError =>
    new AssayError('IO', `bloom filter file is ${what}; delete it to start a new filter (or restore it)`, { file: path });
  if (buf.length >= 4 && buf.readUInt32LE(0) === DOLMA_MAGIC) {
    throw new AssayError('IO', 'this is a bloom filter written by Dolma (ahash, random seeds), which Assay cannot read; build a new one with Assay', { file: path });
  }
  if (buf.length < FIXED + 4 || !buf.subarray(0, 8).equals(MAGIC)) throw bad(buf.length < FIXED + 4 && buf.subarray(0, Math.min(8, buf.length)).equals(MAGIC.subarray(0, Math.min(8, buf.length))) ? 'truncated' : 'not an Assay bloom filter (bad magic)');
  const version = buf.readUInt32LE(8);
  if (version !== FORMAT_VERSION) throw bad(`format version ${version}, this Assay reads version ${FORMAT_VERSION}`);
  const k = buf.readUInt32LE(12);
  const m = Number(buf.readBigUInt64LE(16));
  if (k < 1 || k > MAX_K || m < 32 || m % 32 !== 0 || m > MAX_BITS) throw bad(`corrupt (header says k=${k}, m=${m})`);
  const manifestAt = FIXED + 8 * k;
  if (buf.length < manifestAt + 4) throw bad('truncated');
  const jsonLen = buf.readUInt32LE(manifestAt);
  const bitsAt = manifestAt + 4 + jsonLen + ((4 - (jsonLen % 4)) % 4);
  const expected = bitsAt + m / 8;
  if (buf.length < expected) throw bad(`truncated (${buf.length} bytes, the header promises ${expected})`);
  if (buf.length > expected) throw bad(`corrupt (${buf.length - expected} bytes after the bit array)`);
  const api = await loadXxhash();
  const sum = api.create64(0n);
  for (let off = FIXED; off < buf.length; off += CHUNK) sum.update(buf.subarray(off, Math.min(buf.length, off + CHUNK)));
  if (sum.digest() !== buf.readBigUInt64LE(32)) throw bad('corrupt (checksum mismatch)');
  let manifest: BloomManifest;
  try {
    manifest = JSON.parse(buf.subarray(manifestAt + 4, manifestAt + 4 + jsonLen).toString('utf8')) as BloomManifest;
    if (!Array.isArray(manifest.files)) throw new Error('no files list');
  } catch (e) {
    throw bad(`corrupt (manifest: ${(e as Error).message})`);
  }
  const seeds = Array.from({ length: k }, (_, i) => buf.readBigUInt64LE(FIXED + 8 * i));
  // Copy out of the read buffer: its offset need not be 4-aligned and it may be pooled.
  const words = new Uint32Array(m / 32);
  Buffer.from(words.buffer).set(buf.subarray(bitsAt));
  return { filter: new BloomFilter(api, { k, m }, seeds, words, Number(buf.readBigUInt64LE(24))), manifest, sha256: createHash('sha256').update(buf).digest('hex') };
}
