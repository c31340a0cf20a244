// AtomicWriter: codecs, buffering and bytesIn, commit/abort atomicity, write errors; writeFileAtomic.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing.js';
import { readLineBatches } from './read.js';
import { AtomicWriter, writeFileAtomic } from './write.js';

const tmp = tempDir('assay-io-write-');
afterAll(tmp.cleanup);
let n = 0;
const fresh = (name: string): string => join(tmp.dir, `${n++}`, name);

async function readAll(path: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const b of readLineBatches(path)) lines.push(...b.lines);
  return lines;
}

/** Mixed writes: short strings, strings that straddle the 64 KiB block, big strings, Buffers. */
function writesFor(i: number): string | Buffer {
  if (i % 97 === 0) return 'Z'.repeat(100_000) + 'ü\n';
  if (i % 13 === 0) return Buffer.from(`{"buf":${i},"t":"ß"}\n`);
  return `{"id":${i},"t":"${'é😊'.repeat(i % 50)}${'x'.repeat((i * 31) % 5000)}"}\n`;
}

describe('AtomicWriter', () => {
  for (const name of ['out.jsonl', 'out.jsonl.gz', 'out.jsonl.zst']) {
    it(`${name}: round trip, bytesIn counts UTF-8 bytes, nothing under the final name before commit`, async () => {
      const path = fresh(name);
      const w = await AtomicWriter.open(path);
      const chunks = Array.from({ length: 600 }, (_, i) => writesFor(i));
      for (const c of chunks) await w.write(c);
      expect(existsSync(path)).toBe(false);
      expect(existsSync(`${path}.tmp`)).toBe(true);
      await w.commit();
      expect(existsSync(`${path}.tmp`)).toBe(false);
      const text = Buffer.concat(chunks.map((c) => Buffer.from(c))).toString('utf8');
      expect(w.bytesIn).toBe(Buffer.byteLength(text));
      expect(await readAll(path)).toEqual(text.split('\n').slice(0, -1));
      expect(w.codec).toBe(name.endsWith('.gz') ? 'gzip' : name.endsWith('.zst') ? 'zstd' : 'plain');
    });
  }

  it('gzip output is exactly zlib level 6 by default and honours level', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `{"id":${i},"text":"line number ${i} of some text"}\n`).join('');
    const six = fresh('six.jsonl.gz');
    const w = await AtomicWriter.open(six);
    await w.write(text);
    await w.commit();
    expect(readFileSync(six).equals(gzipSync(text, { level: 6 }))).toBe(true);
    const one = fresh('one.jsonl.gz');
    await writeFileAtomic(one, text, { level: 1 });
    expect(readFileSync(one).equals(gzipSync(text, { level: 1 }))).toBe(true);
  });

  it('zstd output carries a content checksum, so corruption is detectable', async () => {
    const path = fresh('c.jsonl.zst');
    await writeFileAtomic(path, '{"a":1}\n');
    const frameHeaderDescriptor = readFileSync(path)[4] ?? 0;
    expect(frameHeaderDescriptor & 0x04).toBe(0x04);
  });

  it('codec override beats the name', async () => {
    const path = fresh('named.jsonl');
    await writeFileAtomic(path, 'x\n', { codec: 'gzip' });
    expect(gunzipSync(readFileSync(path)).toString()).toBe('x\n');
  });

  it('abort deletes the temporary file and leaves no final file', async () => {
    const path = fresh('aborted.jsonl.gz');
    const w = await AtomicWriter.open(path);
    for (let i = 0; i < 200; i++) await w.write(writesFor(i));
    await w.abort();
    await w.abort();
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.tmp`)).toBe(false);
    await expect(w.write('more')).rejects.toMatchObject({ code: 'INTERNAL' });
    await expect(w.commit()).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  // A full disk for real: a 16 KiB tmpfs (the writer no longer follows a `.tmp` symlink to /dev/full, see below).
  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it.skipIf(!canMount)('a write error (disk full) fails commit with IO and leaves neither file', async () => {
    const dir = join(tmp.dir, 'full');
    mkdirSync(dir, { recursive: true });
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16k', 'tmpfs', dir]);
    if (mounted.status !== 0) throw new Error(`mount failed: ${String(mounted.stderr)}`);
    try {
      for (const name of ['full.jsonl', 'full.jsonl.gz', 'full.jsonl.zst']) {
        const path = join(dir, name);
        const w = await AtomicWriter.open(path);
        const run = async (): Promise<void> => {
          // Random text: compressed or not, far more than the disk holds.
          for (let i = 0; i < 300; i++) await w.write(randomBytes(750).toString('base64') + '\n');
          await w.commit();
        };
        await expect(run()).rejects.toMatchObject({ code: 'IO', message: expect.stringMatching(/ENOSPC|no space/i) });
        await w.abort();
        expect(existsSync(path)).toBe(false);
        expect(readdirSync(dir)).toEqual([]);
      }
    } finally {
      spawnSync('umount', ['-l', dir]);
    }
  });

  it('a planted `.tmp` symlink is replaced, never written through', async () => {
    const path = fresh('planted.jsonl.gz');
    mkdirSync(join(path, '..'), { recursive: true });
    const target = join(tmp.dir, 'target.txt');
    writeFileSync(target, 'untouched');
    symlinkSync(target, `${path}.tmp`);
    await writeFileAtomic(path, '{"id":1}\n');
    expect(readFileSync(target, 'utf8')).toBe('untouched');
    expect(await readAll(path)).toEqual(['{"id":1}']);
  });

  it('open fails with IO when the temporary file cannot be created; mkdir creates parents', async () => {
    const path = fresh('blocked.jsonl');
    mkdirSync(`${path}.tmp`, { recursive: true });
    await expect(AtomicWriter.open(path)).rejects.toMatchObject({ code: 'IO', file: `${path}.tmp` });
    expect(existsSync(path)).toBe(false);
    const deep = join(tmp.dir, 'p', 'q', 'r', 'deep.jsonl');
    await writeFileAtomic(deep, 'ok\n');
    expect(readFileSync(deep, 'utf8')).toBe('ok\n');
    await expect(AtomicWriter.open(join(tmp.dir, 'nodir', 'x.jsonl'), { mkdir: false })).rejects.toMatchObject({ code: 'IO' });
  });

  it('rejects out-of-range levels as CONFIG', async () => {
    await expect(AtomicWriter.open(fresh('l.jsonl.gz'), { level: 12 })).rejects.toMatchObject({ code: 'CONFIG', field: 'level' });
  });

  it('commit replaces an existing final file atomically', async () => {
    const path = fresh('replace.json');
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'old');
    const w = await AtomicWriter.open(path);
    await w.write('new');
    expect(readFileSync(path, 'utf8')).toBe('old');
    await w.commit();
    expect(readFileSync(path, 'utf8')).toBe('new');
  });
});
