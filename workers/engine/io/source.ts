// Opens a Dolma file read-only and exposes its decoded bytes (gzip / zstd / plain) as a chunk stream.
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { AssayError } from '../errors.js';
import { chooseReadCodec, type Codec } from './codec.js';
import { newZstdDecompressStream } from './zstd.js';
import { GzipMemberDecoder } from './gzip-members.js';

/** Read size for the raw file. */
const READ_CHUNK = 64 * 1024;
/**
 * Gunzip output size. toolchain.md B.6 kept zlib's 16 KiB default because larger chunks slowed its
 * combined pipeline; with this reader (which splits any chunk at ≤ 64 KiB itself) io.bench.ts
 * measured 64 KiB faster everywhere: gzip lines 140 → 221 MB/s, gzip → parse → stringify → zstd-3
 * 42-46 → 51-58 MB/s, → gzip-6 26-28 → 28-30 MB/s.
 */
const GUNZIP_CHUNK = 64 * 1024;

export interface DecodedSource {
  codec: Codec;
  /** Decoded bytes; `null` for an empty file. */
  stream: Readable | null;
  /** Bytes read from disk so far (compressed size for gzip/zstd). */
  compressedBytes(): number;
  /** Stops reading and releases the file; safe to call more than once. */
  destroy(err?: Error): void;
  /**
   * With `{ hash: true }`: the sha256 of the raw bytes as on disk (compressed, as stored), settled once the
   * file was read to its end; it never settles for a file left unfinished, and never rejects.
   */
  digest?: Promise<RawDigest>;
  /** With `{ members: true }` on a gzip file: the compressed offset of the member holding a decompressed byte. */
  memberAt?: (offset: number) => number;
}

/** The content hash of a file's bytes as stored (run manifests record it). */
export interface RawDigest {
  sha256: string;
  bytes: number;
}

export interface OpenOptions {
  /** Hash the raw bytes while they are read (no second pass over the file): `DecodedSource.digest`. */
  hash?: boolean;
  /** Decode gzip member by member, so `DecodedSource.memberAt` can place a byte (WARC files: one record a member). */
  members?: boolean;
}

/** Passes raw chunks on unchanged, hashing them on the way (between the file and the decoder). */
class HashingPassThrough extends Transform {
  readonly #hash = createHash('sha256');
  #bytes = 0;
  constructor(private readonly onDone: (d: RawDigest) => void) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.#hash.update(chunk);
    this.#bytes += chunk.length;
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    this.onDone({ sha256: this.#hash.digest('hex'), bytes: this.#bytes });
    cb();
  }
}

const EMPTY_SHA256 = createHash('sha256').digest('hex');

export async function openDecoded(file: string, override?: Codec, opts: OpenOptions = {}): Promise<DecodedSource> {
  let fh: FileHandle;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    throw new AssayError('IO', `cannot open for reading: ${errorText(e)}`, { file, cause: e });
  }
  let head: Buffer;
  try {
    head = await readHead(fh);
  } catch (e) {
    await fh.close().catch(() => undefined);
    throw new AssayError('IO', `cannot read: ${errorText(e)}`, { file, cause: e });
  }
  const codec = chooseReadCodec(file, head, override);
  if (head.length === 0) {
    // An empty file holds no lines whatever its codec (gunzip alone would call it truncated).
    await fh.close();
    return { codec, stream: null, compressedBytes: () => 0, destroy: () => undefined, ...(opts.hash ? { digest: Promise.resolve({ sha256: EMPTY_SHA256, bytes: 0 }) } : {}) };
  }
  // Reads continue from the current position and the probe is put back in front, so pipes and
  // FIFOs (which cannot seek) work as well as regular files.
  const raw = fh.createReadStream({ highWaterMark: READ_CHUNK });
  raw.unshift(head);
  const members = codec === 'gzip' && opts.members ? new GzipMemberDecoder() : null;
  const decoder = members ?? (codec === 'gzip' ? createGunzip({ chunkSize: GUNZIP_CHUNK }) : codec === 'zstd' ? newZstdDecompressStream() : null);
  // The hasher sits right after the file, so it sees the stored bytes (the probe included, put back above).
  let hasher: HashingPassThrough | null = null;
  let digest: Promise<RawDigest> | undefined;
  if (opts.hash) {
    let settle: (d: RawDigest) => void = () => undefined;
    digest = new Promise((resolve) => (settle = resolve));
    hasher = new HashingPassThrough((d) => settle(d));
  }
  const stages: (Readable | Transform)[] = [raw, ...(hasher ? [hasher] : []), ...(decoder ? [decoder] : [])];
  // pipeline forwards a read error of the file into the decoder and destroys both on failure;
  // the outcome itself is observed through the decoder, so the callback has nothing left to do.
  if (stages.length > 1) pipeline(stages, () => undefined);
  const out = stages[stages.length - 1] as Readable;
  return {
    codec,
    stream: out,
    compressedBytes: () => head.length + raw.bytesRead,
    destroy: (err) => {
      out.destroy(err);
      hasher?.destroy();
      raw.destroy();
    },
    ...(digest ? { digest } : {}),
    ...(members ? { memberAt: (offset: number) => members.memberAt(offset) } : {}),
  };
}

/** The first bytes (up to 4, enough for either magic number), tolerating short reads. */
async function readHead(fh: FileHandle): Promise<Buffer> {
  const probe = Buffer.alloc(4);
  let got = 0;
  while (got < probe.length) {
    const { bytesRead } = await fh.read(probe, got, probe.length - got, null);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return probe.subarray(0, got);
}

/** An error as text, with its errno code (ENOENT, ENOSPC…) when the message lacks it. */
export function errorText(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as NodeJS.ErrnoException).code;
    return code !== undefined && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
  }
  return String(e);
}
