// Dedupe publishes its attributes and bloom filter together at the end: a failure anywhere (a bad file, a full disk at the filter) publishes nothing.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dedupeConfig } from '../../../shared/dedupe/schema.js';
import { rng, scratchDir, writeJsonl } from '../testing.js';
import { runDedupe } from './index.js';

function dataset(dir: string, bad = false): void {
  const r = rng(3);
  for (let f = 0; f < 3; f++) {
    const rows: unknown[] = Array.from({ length: 200 }, (_, i) => ({ id: `f${f}-${i}`, text: `para ${Math.floor(r() * 50)}\nshared paragraph ${i % 7}\n` }));
    if (bad && f === 2) rows.push('{"id": "broken", "text": ');
    writeJsonl(join(dir, 'documents', `${f}.jsonl.gz`), rows);
  }
}

const config = (bloomFile: string, sizeInBytes = 0): ReturnType<typeof dedupeConfig.parse> =>
  dedupeConfig.parse({
    documents: ['documents/*.jsonl.gz'],
    dedupe: { name: 'dd', paragraphs: { attribute_name: 'bff' } },
    bloom_filter: { file: bloomFile, read_only: false, estimated_doc_count: 10_000, desired_false_positive_rate: 0.001, ...(sizeInBytes ? { size_in_bytes: sizeInBytes } : {}) },
  });

const attributeFiles = (dir: string): string[] => (existsSync(join(dir, 'attributes/dd')) ? readdirSync(join(dir, 'attributes/dd')) : []);

describe('dedupe publishing', () => {
  it('a bad line in the last file: no attributes published for the files before it, no filter, no .tmp left', async () => {
    const dir = scratchDir('assay-dedupe-pub-');
    dataset(dir, true);
    await expect(runDedupe(config('bloom/b.bin'), { cwd: dir })).rejects.toMatchObject({ code: 'PARSE', file: join(dir, 'documents/2.jsonl.gz') });
    expect(attributeFiles(dir)).toEqual([]);
    expect(existsSync(join(dir, 'bloom')) ? readdirSync(join(dir, 'bloom')) : []).toEqual([]);
    // Fixed, the rerun publishes all three with the filter.
    dataset(dir);
    const s = await runDedupe(config('bloom/b.bin'), { cwd: dir });
    expect(s.bloom.saved).toBe(true);
    // With the run manifest (.assay/manifest.json), written only by a run that succeeded.
    expect(attributeFiles(dir).sort()).toEqual(['.assay', '0.jsonl.gz', '1.jsonl.gz', '2.jsonl.gz']);
    expect(readdirSync(join(dir, 'bloom'))).toEqual(['b.bin']);
  });

  const canMount = process.getuid?.() === 0 && spawnSync('mount', ['--version']).status === 0;
  it.skipIf(!canMount)('a full disk while saving the filter (a 256 KiB tmpfs for a 1 MiB filter): IO naming the filter, no attributes published', async () => {
    const dir = scratchDir('assay-dedupe-full-');
    dataset(dir);
    const disk = join(dir, 'small-disk');
    mkdirSync(disk);
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', disk]);
    if (mounted.status !== 0) throw new Error(`mount failed: ${String(mounted.stderr)}`);
    try {
      await expect(runDedupe(config(join(disk, 'b.bin'), 1 << 20), { cwd: dir })).rejects.toMatchObject({ code: 'IO', file: join(disk, 'b.bin'), message: expect.stringMatching(/ENOSPC/) });
      expect(attributeFiles(dir)).toEqual([]);
      expect(readdirSync(disk)).toEqual([]);
    } finally {
      spawnSync('umount', ['-l', disk]);
    }
  });
});
