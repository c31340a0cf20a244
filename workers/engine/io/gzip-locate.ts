// After gunzip failed: walks the file member by member to say where (compressed byte offset) and after which line it went wrong.
import { open, stat, type FileHandle } from 'node:fs/promises';
import { createInflateRaw, type InflateRaw } from 'node:zlib';
import { gzipHeaderLength } from './gzip-members.js';

export interface GzipFailure {
  kind: 'garbage' | 'corrupt' | 'truncated';
  /** Compressed byte offset: where the garbage starts, where the damage was met (approximate), or the file size. */
  offset: number;
  /** Complete lines (newlines) in the data decoded before that point. */
  lines: number;
}

const CHUNK = 1 << 20;

/**
 * Node's gunzip destroys its stream on an error, dropping output it had already decoded, so the
 * reader cannot tell how far the data was good. This pass decodes each member with a raw inflater,
 * which stops at the member's end and says how many bytes it consumed (its `bytesWritten`), so the
 * first byte that is not another member is found exactly. Undefined when the file decodes cleanly
 * this way (a checksum mismatch, say: the caller keeps zlib's own message then).
 */
export async function locateGzipFailure(file: string): Promise<GzipFailure | undefined> {
  // A pipe cannot be read twice (and opening one could wait for a writer forever).
  if (!(await stat(file)).isFile()) return undefined;
  const fh = await open(file, 'r');
  try {
    const size = (await fh.stat()).size;
    let at = 0;
    let lines = 0;
    for (;;) {
      const head = await readAt(fh, at, Math.min(64 * 1024, size - at));
      // Like zlib (and Node): the end of the file, or zero padding after a member, ends the data.
      if (head.length === 0 || head[0] === 0) return undefined;
      if (head.length < 2 || head[0] !== 0x1f || head[1] !== 0x8b) return { kind: at === 0 ? 'corrupt' : 'garbage', offset: at, lines };
      const headerLen = headerLengthOrNull(head);
      if (headerLen === null) return { kind: head.length < 10 ? 'truncated' : 'corrupt', offset: at, lines };
      const member = await inflateMember(fh, at + headerLen, size);
      lines += member.lines;
      if (member.failed !== undefined) return { kind: member.failed, offset: member.offset, lines };
      // The 8-byte trailer (CRC-32, size) follows the deflate data.
      const next = member.offset + 8;
      if (next > size) return { kind: 'truncated', offset: size, lines };
      at = next;
    }
  } finally {
    await fh.close();
  }
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const buf = Buffer.alloc(length);
  const { bytesRead } = await fh.read(buf, 0, length, position);
  return buf.subarray(0, bytesRead);
}

/** RFC 1952 header length, or null when it is invalid or does not fit in `b`. */
function headerLengthOrNull(b: Buffer): number | null {
  try {
    return gzipHeaderLength(b) || null;
  } catch {
    return null;
  }
}

/** Inflates one member's deflate data from `start`: its end offset and newlines, or where it failed. */
async function inflateMember(fh: FileHandle, start: number, size: number): Promise<{ offset: number; lines: number; failed?: 'corrupt' | 'truncated' }> {
  const inf: InflateRaw = createInflateRaw();
  let lines = 0;
  let error: Error | undefined;
  inf.on('data', (d: Buffer) => {
    for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
  });
  let ended = false;
  inf.on('error', (e) => (error = e));
  inf.on('end', () => (ended = true));
  let fed = 0;
  try {
    for (let pos = start; pos < size; pos += CHUNK) {
      const chunk = await readAt(fh, pos, Math.min(CHUNK, size - pos));
      fed += chunk.length;
      // An inflater that fails on this chunk may never call the write callback: wake on 'error' too.
      await new Promise<void>((resolve) => {
        const done = (): void => {
          inf.off('error', done);
          resolve();
        };
        inf.once('error', done);
        inf.write(chunk, done);
      });
      if (error !== undefined) return { offset: start + inf.bytesWritten, lines, failed: 'corrupt' };
      // Consumed less than it was given: the deflate stream ended inside this chunk.
      if (inf.bytesWritten < fed) return { offset: start + inf.bytesWritten, lines };
    }
    if (!ended && error === undefined) {
      await new Promise<void>((resolve) => {
        for (const ev of ['end', 'error', 'close']) inf.once(ev, () => resolve());
        inf.end();
      });
    }
    if (error !== undefined) return { offset: size, lines, failed: /unexpected end/i.test(error.message) ? 'truncated' : 'corrupt' };
    return { offset: start + inf.bytesWritten, lines };
  } finally {
    inf.destroy();
  }
}
