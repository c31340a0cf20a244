// Bloom filter: Dolma's sizing values, the Assay geometry, save/load round trips and every bad-file error.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE,  scratchDir } from '../../testing.js';
import { BloomFilter, geometryFor, KeyEncoder, loadFilter, MIN_BITS, optimalNumberOfHashers, probOfFalsePositive, saveFilter, suggestSizeInBytes } from './index.js';

const CASES = JSON.parse(readFileSync(join(CONFORMANCE, 'dolma/bloom/bloom-sizing-cases.json'), 'utf8')) as {
  optimal_number_of_hashers: { size_in_bytes: number; expected_elements: number; k: number }[];
  prob_of_false_positive: { size_in_bytes: number; expected_elements: number; num_hashers: number; p: number }[];
  suggest_size_in_bytes: { expected_elements: number; desired_false_positive_rate: number; size_in_bytes: number }[];
};

describe('Dolma sizing formulas', () => {
  it.each(CASES.optimal_number_of_hashers)('optimal_number_of_hashers($size_in_bytes, $expected_elements) = $k', (c) => {
    expect(optimalNumberOfHashers(c.size_in_bytes, c.expected_elements)).toBe(c.k);
  });
  it.each(CASES.prob_of_false_positive)('prob_of_false_positive($size_in_bytes, $expected_elements, $num_hashers) = $p', (c) => {
    expect(probOfFalsePositive(c.size_in_bytes, c.expected_elements, c.num_hashers)).toBe(c.p);
  });
  it.each(CASES.suggest_size_in_bytes)('suggest_size_in_bytes($expected_elements, $desired_false_positive_rate) = $size_in_bytes', (c) => {
    expect(suggestSizeInBytes(c.expected_elements, c.desired_false_positive_rate)).toBe(c.size_in_bytes);
  });
});

describe('Assay geometry', () => {
  it('uses the optimal bit count above the 1 MiB floor, and size_in_bytes as given', () => {
    const g = geometryFor({ sizeInBytes: 0, estimatedDocCount: 1e7, falsePositiveRate: 0.01 });
    expect(g.m / ((-1e7 * Math.log(0.01)) / Math.LN2 ** 2)).toBeCloseTo(1, 4);
    expect(g.k).toBe(7);
    expect(geometryFor({ sizeInBytes: 0, estimatedDocCount: 1000, falsePositiveRate: 0.001 })).toEqual({ k: 32, m: MIN_BITS });
    expect(geometryFor({ sizeInBytes: 1e6, estimatedDocCount: 5e5, falsePositiveRate: 0 })).toEqual({ k: 12, m: 8e6 });
    expect(() => geometryFor({ sizeInBytes: 1e6, estimatedDocCount: 0, falsePositiveRate: 0 })).toThrow(/estimated_doc_count/);
  });
});

function flip(b: Buffer, at: number): Buffer {
  b[at] = (b[at] as number) ^ 4;
  return b;
}

async function savedFilter(dir: string): Promise<{ path: string; keys: Uint8Array[] }> {
  const f = await BloomFilter.create({ k: 5, m: 1 << 16 });
  const enc = new KeyEncoder();
  const keys = ['alpha', 'beta', 'γάμμα 😊'].map((k) => Uint8Array.from(enc.one(k)));
  for (const k of keys) f.checkAndAdd(k);
  const path = join(dir, 'sub/filter.bin');
  await saveFilter(path, f, { files: [{ input: '/x/documents/a.gz', size: 1, mtimeMs: 2, fingerprint: 'fp', output: '/x/attributes/n/a.gz', outputSize: 3, docs: 4 }] });
  return { path, keys };
}

describe('filter file', () => {
  it('round-trips bits, seeds, insertions and the manifest', async () => {
    const t = { dir: scratchDir() };
    const { path, keys } = await savedFilter(t.dir);
    const { filter, manifest } = await loadFilter(path);
    expect([filter.k, filter.m, filter.insertions]).toEqual([5, 1 << 16, 3]);
    for (const k of keys) expect(filter.checkAndAdd(k)).toBe(true);
    expect(filter.checkAndAdd(new KeyEncoder().one('delta'))).toBe(false);
    expect(manifest.files[0]?.docs).toBe(4);
  });

  it.each([
    ['truncated', (b: Buffer) => b.subarray(0, b.length - 10), /truncated/],
    ['truncated header', (b: Buffer) => b.subarray(0, 20), /truncated/],
    ['a flipped bit', (b: Buffer) => flip(b, b.length - 100), /checksum/],
    ['a flipped seed', (b: Buffer) => flip(b, 41), /checksum/],
    ['trailing bytes', (b: Buffer) => Buffer.concat([b, Buffer.alloc(4)]), /after the bit array/],
    ['bad magic', (b: Buffer) => b.fill('NOTBLOOM', 0, 8, 'latin1'), /bad magic/],
    ['a future version', (b: Buffer) => b.fill(Buffer.from([9, 0, 0, 0]), 8, 12), /version 9/],
    ['a Dolma filter', () => Buffer.from([0x17, 0xf1, 0xf0, 0x81, 1, 0, 0, 0]), /written by Dolma/],
  ])('rejects %s, naming the file', async (_name, damage, message) => {
    const t = { dir: scratchDir() };
    const { path } = await savedFilter(t.dir);
    writeFileSync(path, damage(readFileSync(path)));
    const p = loadFilter(path);
    await expect(p).rejects.toMatchObject({ name: 'AssayError', code: 'IO', file: path });
    await expect(p).rejects.toThrow(message);
  });
});
