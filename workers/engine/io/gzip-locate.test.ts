// A failing gzip file is located exactly: the compressed offset where trailing garbage starts and the last complete line, however much gunzip dropped.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { tempDir } from '../testing.js';
import { locateGzipFailure } from './gzip-locate.js';
import { readLineBatches } from './read.js';

const tmp = tempDir('assay-io-gzlocate-');
afterAll(tmp.cleanup);
let n = 0;
const file = (data: Buffer): string => {
  const p = join(tmp.dir, `${n++}.jsonl.gz`);
  writeFileSync(p, data);
  return p;
};
const rows = (count: number, from = 0): string => Array.from({ length: count }, (_, i) => JSON.stringify({ id: `d${from + i}`, text: `line ${from + i} ${'x'.repeat((from + i) % 70)}` }) + '\n').join('');
const GARBAGE = Buffer.from('this is not gzip at all');

async function read(path: string): Promise<{ err: AssayError | undefined; lines: number }> {
  let lines = 0;
  try {
    for await (const b of readLineBatches(path)) lines += b.lines.length;
  } catch (e) {
    expect(e).toBeInstanceOf(AssayError);
    return { err: e as AssayError, lines };
  }
  return { err: undefined, lines };
}

describe('gzip failures, located', () => {
  it('20,000 lines then garbage: names line 20,000 and the offset the garbage starts at (gunzip alone said an earlier line)', async () => {
    const gz = gzipSync(rows(20_000));
    const path = file(Buffer.concat([gz, GARBAGE]));
    const { err, lines } = await read(path);
    expect(err?.message).toBe(`${path}:20000: gzip data has trailing garbage from compressed byte offset ${gz.length} on, after line 20000 (the last complete line): incorrect header check (Z_DATA_ERROR)`);
    expect(err).toMatchObject({ code: 'IO', file: path, line: 20_000 });
    expect(lines).toBeLessThanOrEqual(20_000);
    expect(await locateGzipFailure(path)).toEqual({ kind: 'garbage', offset: gz.length, lines: 20_000 });
  });

  it('garbage after a single line, after several members, and an unterminated last line', async () => {
    const one = gzipSync(rows(1));
    const single = file(Buffer.concat([one, GARBAGE]));
    expect((await read(single)).err?.message).toContain(`trailing garbage from compressed byte offset ${one.length} on, after line 1 (the last complete line)`);
    const a = gzipSync(rows(700));
    const b = gzipSync(rows(300, 700));
    const members = file(Buffer.concat([a, b, GARBAGE]));
    expect(await locateGzipFailure(members)).toEqual({ kind: 'garbage', offset: a.length + b.length, lines: 1000 });
    const open = gzipSync(Buffer.from('{"id":1}\n{"id":2}'));
    const unterminated = file(Buffer.concat([open, GARBAGE]));
    expect((await read(unterminated)).err?.message).toContain(`offset ${open.length} on, after line 1 (the last complete line)`);
  });

  it('a header with a file name and comment is skipped exactly; zero padding after a member is accepted, as zlib does', async () => {
    const plain = gzipSync(rows(50));
    // FNAME | FCOMMENT: the name and comment go right after the 10-byte header.
    const named = Buffer.concat([plain.subarray(0, 3), Buffer.from([0x18]), plain.subarray(4, 10), Buffer.from('docs.jsonl\0a comment\0'), plain.subarray(10)]);
    expect(await locateGzipFailure(file(Buffer.concat([named, GARBAGE])))).toEqual({ kind: 'garbage', offset: named.length, lines: 50 });
    const padded = file(Buffer.concat([plain, Buffer.alloc(512)]));
    expect(await read(padded)).toEqual({ err: undefined, lines: 50 });
  });

  it('a truncated file: the end of the file as the offset and the last complete line decoded', async () => {
    const gz = gzipSync(rows(5000));
    const cut = gz.subarray(0, Math.floor(gz.length * 0.7));
    const path = file(cut);
    const located = await locateGzipFailure(path);
    expect(located).toMatchObject({ kind: 'truncated', offset: cut.length });
    const { err, lines } = await read(path);
    expect(err?.message).toContain(`gzip data is truncated at compressed byte offset ${cut.length} (the end of the file), after line ${located?.lines} (the last complete line)`);
    expect(lines).toBeLessThanOrEqual(located?.lines ?? 0);
    expect(located?.lines).toBeGreaterThan(3000);
  });
});

describe('gzip locating, large files', () => {
  it('garbage after many MiB of data: no listener build-up (no warning), the exact offset', async () => {
    const { randomBytes } = await import('node:crypto');
    // Incompressible lines, so the compressed data spans many of the locator's 1 MiB reads.
    const text = Array.from({ length: 16_000 }, () => randomBytes(768).toString('base64')).join('\n') + '\n';
    const gz = gzipSync(text, { level: 1 });
    expect(gz.length).toBeGreaterThan(11 * 1024 * 1024);
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      expect(await locateGzipFailure(file(Buffer.concat([gz, GARBAGE])))).toEqual({ kind: 'garbage', offset: gz.length, lines: 16_000 });
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.message)).toEqual([]);
  });
});
