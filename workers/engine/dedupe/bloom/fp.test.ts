// False-positive rate and size of a filter sized for n keys at p = 0.01, measured with n other keys.
import { describe, expect, it } from 'vitest';
import { BloomFilter, geometryFor, KeyEncoder } from './index.js';

/** 10^6 inserted + 10^6 probed keys take about 2 s on one core. */
const N = 1_000_000;
const P = 0.01;

describe('bloom filter false positives (n = 10^6, p = 0.01)', () => {
  it('stays within 20 % of the configured rate, at the optimal size (±5 %)', async () => {
    const optimalBits = (-N * Math.log(P)) / Math.LN2 ** 2;
    const g = geometryFor({ sizeInBytes: 0, estimatedDocCount: N, falsePositiveRate: P });
    expect(Math.abs(g.m / optimalBits - 1)).toBeLessThan(0.05);
    const f = await BloomFilter.create(g);
    const enc = new KeyEncoder();
    for (let i = 0; i < N; i++) f.checkAndAdd(enc.one(`key-${i}`));
    let fp = 0;
    for (let i = 0; i < N; i++) {
      f.locate(enc.one(`other-${i}`));
      if (f.has()) fp++;
    }
    const rate = fp / N;
    expect(rate).toBeGreaterThan(P * 0.8);
    expect(rate).toBeLessThan(P * 1.2);
    expect(Math.abs(f.stats().estimatedFalsePositiveRate / P - 1)).toBeLessThan(0.2);
  });
});
