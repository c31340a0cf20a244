// readLineBatches: codecs, line splitting edge cases, error locations, cancellation.
import { execFileSync } from 'node:child_process';
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type * as ZstdNapi from 'zstd-napi';
import { AssayError } from '../errors.js';
import { tempDir } from '../testing.js';
import { readLineBatches, type LineBatch, type ReadOptions } from './read.js';

const zstd = createRequire(import.meta.url)('zstd-napi') as typeof ZstdNapi;
const tmp = tempDir('assay-io-read-');
afterAll(tmp.cleanup);
let n = 0;
const file = (name: string, data: string | Buffer): string => {
  const p = join(tmp.dir, `${n++}-${name}`);
  writeFileSync(p, data);
  return p;
};
const zst = (data: string | Buffer, checksum = true): Buffer => {
  const c = new zstd.Compressor();
  c.setParameters({ compressionLevel: 3, checksumFlag: checksum });
  return c.compress(Buffer.from(data));
};

function flip(buf: Buffer, at: number, mask: number): void {
  buf[at] = (buf[at] ?? 0) ^ mask;
}

async function collect(path: string, opts?: ReadOptions): Promise<{ batches: LineBatch[]; lines: string[]; bytes: number[] }> {
  const batches: LineBatch[] = [];
  for await (const b of readLineBatches(path, opts)) batches.push(b);
  return { batches, lines: batches.flatMap((b) => b.lines), bytes: batches.flatMap((b) => b.bytes) };
}

async function failure(path: string, opts?: ReadOptions): Promise<{ err: AssayError; lines: string[] }> {
  const lines: string[] = [];
  try {
    for await (const b of readLineBatches(path, opts)) lines.push(...b.lines);
  } catch (e) {
    expect(e).toBeInstanceOf(AssayError);
    return { err: e as AssayError, lines };
  }
  throw new Error('expected the read to fail');
}

/** Lines of varied length with multi-byte characters, so chunk boundaries fall everywhere. */
function sampleLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `{"id":${i},"t":"${'é😊x'.repeat(i % 97)}${'a'.repeat((i * 7919) % 3001)}"}`);
}

describe('readLineBatches round trips', () => {
  const lines = sampleLines(3000);
  const text = lines.join('\n') + '\n';
  const raw = Buffer.from(text);
  const cases: [string, () => string][] = [
    ['plain', () => file('a.jsonl', text)],
    ['gzip', () => file('a.jsonl.gz', gzipSync(text))],
    ['multi-member gzip', () => file('m.jsonl.gz', Buffer.concat([gzipSync(raw.subarray(0, 12345)), gzipSync(raw.subarray(12345))]))],
    ['zstd', () => file('a.jsonl.zst', zst(text))],
    ['multi-frame zstd', () => file('m.jsonl.zst', Buffer.concat([zst(raw.subarray(0, 54321)), zst(raw.subarray(54321), false)]))],
  ];
  for (const [name, make] of cases) {
    it(`${name}: every line, byte count and number survives`, async () => {
      const got = await collect(make(), { batchLines: 100 });
      expect(got.lines).toEqual(lines);
      expect(got.bytes).toEqual(lines.map((l) => Buffer.byteLength(l)));
      let next = 1;
      for (const b of got.batches) {
        expect(b.firstLine).toBe(next);
        expect(b.lines.length).toBeLessThanOrEqual(100);
        expect(b.bytes).toHaveLength(b.lines.length);
        next += b.lines.length;
      }
    });
  }

  it('a 2 MB single line spanning many chunks', async () => {
    const big = '€'.repeat(700_000) + 'end';
    const got = await collect(file('big.jsonl.gz', gzipSync(`first\n${big}\nlast\n`)));
    expect(got.lines.map((l) => l.length)).toEqual([5, big.length, 4]);
    expect(got.lines[1]).toBe(big);
    expect(got.bytes[1]).toBe(2_100_003);
  });

  it('keeps \\r as data, counts a final line without \\n, adds no line after a final \\n', async () => {
    expect((await collect(file('crlf.jsonl', 'a\r\nb\r\n'))).lines).toEqual(['a\r', 'b\r']);
    expect((await collect(file('crlf.jsonl', 'a\r\nb\r\n'))).bytes).toEqual([2, 2]);
    expect((await collect(file('nonl.jsonl', 'a\nb'))).lines).toEqual(['a', 'b']);
    expect((await collect(file('nonl.jsonl.gz', gzipSync('a\nlast')))).lines).toEqual(['a', 'last']);
    expect((await collect(file('blank.jsonl', '\n\nx\n'))).lines).toEqual(['', '', 'x']);
    expect((await collect(file('empty.jsonl', ''))).lines).toEqual([]);
    expect((await collect(file('empty.jsonl.gz', ''))).lines).toEqual([]);
  });

  it('closes a batch early once it holds 4 MiB', async () => {
    const line = 'q'.repeat(1_000_000);
    const got = await collect(file('mb.jsonl', Array(10).fill(line).join('\n')), { batchLines: 1000 });
    expect(got.batches.map((b) => [b.firstLine, b.lines.length])).toEqual([
      [1, 5],
      [6, 5],
    ]);
  });

  it('closes a batch at batchLines', async () => {
    const got = await collect(file('b.jsonl', 'a\nb\nc\nd\ne\n'), { batchLines: 2 });
    expect(got.batches.map((b) => [b.firstLine, b.lines])).toEqual([
      [1, ['a', 'b']],
      [3, ['c', 'd']],
      [5, ['e']],
    ]);
  });

  it('trusts magic bytes over the extension unless a codec is forced', async () => {
    const gz = file('really-gzip.jsonl', gzipSync('{"x":1}\n'));
    expect((await collect(gz)).lines).toEqual(['{"x":1}']);
    expect((await collect(file('really-zstd.jsonl.gz', zst('{"y":2}\n')))).lines).toEqual(['{"y":2}']);
    const forced = await failure(gz, { codec: 'plain' });
    expect(forced.err.code).toBe('PARSE');
  });

  it('reports progress and never writes to the input', async () => {
    const text = sampleLines(500).join('\n') + '\n';
    const path = file('p.jsonl.gz', gzipSync(text));
    const before = statSync(path);
    const seen: { compressedBytes: number; bytes: number }[] = [];
    await collect(path, { onProgress: (p) => seen.push(p) });
    const last = seen[seen.length - 1];
    expect(last?.bytes).toBe(Buffer.byteLength(text));
    expect(last?.compressedBytes).toBe(before.size);
    expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
    expect(readFileSync(path).equals(gzipSync(text))).toBe(true);
  });
});

describe('readLineBatches errors', () => {
  const lines = sampleLines(400);
  const text = lines.join('\n') + '\n';

  it('truncated gzip: IO naming the file and the last complete line, earlier lines delivered', async () => {
    const gz = gzipSync(text);
    const path = file('trunc.jsonl.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
    const { err, lines: got } = await failure(path);
    expect(err.code).toBe('IO');
    expect(err.file).toBe(path);
    expect(err.message).toContain('unexpected end of file');
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(lines.slice(0, got.length));
    expect(err.line).toBe(got.length);
    expect(err.message).toContain(`${path}:${got.length}:`);
  });

  it('corrupt gzip (bad header, bad CRC): IO', async () => {
    const header = Buffer.from(gzipSync(text));
    header[2] = 9; // compression method other than deflate
    const bad = await failure(file('corrupt-header.jsonl.gz', header));
    expect(bad.err.code).toBe('IO');
    expect(bad.err.message).toMatch(/gzip data is corrupt near compressed byte offset 0, before the first complete line/);
    const crc = Buffer.from(gzipSync(text));
    flip(crc, crc.length - 6, 0xff);
    const late = await failure(file('corrupt-crc.jsonl.gz', crc));
    expect(late.err.code).toBe('IO');
    expect(late.err.message).toContain('incorrect data check');
    expect(late.err.line).toBe(late.lines.length);
  });

  it('gzip corrupted mid-stream fails (IO or, when garbage decodes first, PARSE on invalid UTF-8)', async () => {
    const gz = Buffer.from(gzipSync(text));
    for (let i = 0; i < 64; i++) flip(gz, Math.floor(gz.length / 2) + i, 0xa5);
    const { err } = await failure(file('corrupt.jsonl.gz', gz));
    expect(['IO', 'PARSE']).toContain(err.code);
  });

  it('corrupt and truncated zstd: IO', async () => {
    const z = Buffer.from(zst(text));
    for (let i = 0; i < 64; i++) flip(z, Math.floor(z.length / 2) + i, 0xa5);
    const corrupt = await failure(file('corrupt.jsonl.zst', z));
    expect(corrupt.err.code).toBe('IO');
    expect(corrupt.err.message).toMatch(/zstd data is corrupt/);
    const whole = zst(text);
    const truncated = await failure(file('trunc.jsonl.zst', whole.subarray(0, whole.length - 100)));
    expect(truncated.err.code).toBe('IO');
    expect(truncated.err.message).toMatch(/zstd data is truncated/);
  });

  it('missing file or a directory: IO naming it', async () => {
    const path = join(tmp.dir, 'nope.jsonl.gz');
    const { err } = await failure(path);
    expect(err.code).toBe('IO');
    expect(err.file).toBe(path);
    expect(err.message).toContain('ENOENT');
    const dir = await failure(tmp.dir);
    expect(dir.err).toMatchObject({ code: 'IO', file: tmp.dir, message: expect.stringContaining('EISDIR') });
  });

  it('invalid UTF-8 on line 3: PARSE naming file:3, lines 1-2 delivered', async () => {
    const bad = Buffer.concat([Buffer.from('{"a":1}\n{"b":"é"}\n{"c":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"d":4}\n')]);
    for (const [name, data] of [
      ['bad.jsonl', bad],
      ['bad.jsonl.gz', gzipSync(bad)],
    ] as const) {
      const path = file(name, data);
      const { err, lines: got } = await failure(path);
      expect(err.code).toBe('PARSE');
      expect(err.file).toBe(path);
      expect(err.line).toBe(3);
      expect(err.message).toContain(`${path}:3:`);
      expect(err.message).toContain('byte offset 6');
      expect(got).toEqual(['{"a":1}', '{"b":"é"}']);
    }
  });

  it('invalid UTF-8 inside a long line, across chunk boundaries, and in a final line', async () => {
    const long = Buffer.concat([Buffer.from('x'.repeat(100_000)), Buffer.from([0xff]), Buffer.from('y\nok\n')]);
    expect((await failure(file('long.jsonl', Buffer.concat([Buffer.from('a\n'), long])))).err.line).toBe(2);
    expect((await failure(file('end.jsonl', Buffer.from([0x61, 0x0a, 0xe2, 0x82])))).err.line).toBe(2);
  });

  it('onBadLine skips invalid lines and keeps numbering', async () => {
    const bad = Buffer.concat([Buffer.from('a\nb\n'), Buffer.from([0xfe]), Buffer.from('\nd\ne\n')]);
    const reported: AssayError[] = [];
    const got = await collect(file('skip.jsonl', bad), { onBadLine: (e) => reported.push(e) });
    expect(reported.map((e) => [e.code, e.line])).toEqual([['PARSE', 3]]);
    expect(got.batches.map((b) => [b.firstLine, b.lines])).toEqual([
      [1, ['a', 'b']],
      [4, ['d', 'e']],
    ]);
  });
});

describe('readLineBatches cancellation', () => {
  const text = sampleLines(6000).join('\n') + '\n';

  it('stops mid-file with CANCELLED when the signal aborts', async () => {
    for (const path of [file('c.jsonl.gz', gzipSync(text)), file('c.jsonl.zst', zst(text)), file('c.jsonl', text)]) {
      const ctl = new AbortController();
      let read = 0;
      const run = async (): Promise<void> => {
        for await (const b of readLineBatches(path, { signal: ctl.signal, batchLines: 50 })) {
          read += b.lines.length;
          if (read >= 100) ctl.abort();
        }
      };
      await expect(run()).rejects.toMatchObject({ code: 'CANCELLED', file: path });
      expect(read).toBeLessThan(200);
    }
  });

  it('stops promptly while waiting for more data (FIFO input)', async () => {
    const fifo = join(tmp.dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    const writer = open(fifo, 'w');
    const ctl = new AbortController();
    const got: string[] = [];
    const run = (async () => {
      for await (const b of readLineBatches(fifo, { signal: ctl.signal, batchLines: 1 })) {
        got.push(...b.lines);
        if (got.length === 2) setTimeout(() => ctl.abort(), 20);
      }
    })();
    const w = await writer;
    await w.write('a\nb\n');
    const started = Date.now();
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED', file: fifo });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(got).toEqual(['a', 'b']);
    await w.close();
  });

  it('an already-aborted signal fails before opening', async () => {
    const ctl = new AbortController();
    ctl.abort();
    const { err } = await failure(join(tmp.dir, 'does-not-matter.jsonl'), { signal: ctl.signal });
    expect(err.code).toBe('CANCELLED');
  });

  it('breaking out early releases the file', async () => {
    const path = file('early.jsonl.gz', gzipSync(text));
    for await (const b of readLineBatches(path, { batchLines: 10 })) {
      expect(b.firstLine).toBe(1);
      break;
    }
    // A second full read still works and sees every line.
    expect((await collect(path)).lines).toHaveLength(6000);
  });
});
