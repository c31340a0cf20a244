// random_number_v1: uniform, reproducible from the seed, different across seeds, ids and positions.
import { describe, expect, it } from 'vitest';
import { randomNumberV1, randomScore } from './random.js';
import { doc } from './test-helpers.js';

async function values(seed: number, ids: string[]): Promise<number[]> {
  const tagger = await randomNumberV1.create({}, { seed, cwd: '/' });
  return ids.map((id) => tagger.tag(doc('some text', { id }))[0]!.score);
}

describe('random_number_v1', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `doc-${i}`);

  it('same seed and input → same values', async () => {
    expect(await values(7, ids)).toEqual(await values(7, ids));
  });

  it('another seed → other values', async () => {
    const a = await values(7, ids);
    const b = await values(8, ids);
    expect(a.filter((v, i) => v === b[i]).length).toBe(0);
  });

  it('repeated ids in one file still get distinct values (the position is hashed too)', async () => {
    const v = await values(1, ['same', 'same', 'same']);
    expect(new Set(v).size).toBe(3);
    expect(v[0]).toBe(randomScore(1, 0, 'same'));
  });

  it('is uniform on [0, 1)', async () => {
    const v = await values(3, ids);
    expect(Math.min(...v)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...v)).toBeLessThan(1);
    const mean = v.reduce((s, x) => s + x, 0) / v.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.03);
    const deciles = new Array(10).fill(0);
    for (const x of v) deciles[Math.floor(x * 10)]++;
    for (const d of deciles) expect(Math.abs(d - 200)).toBeLessThan(60);
  });

  it('spans the whole text', async () => {
    const tagger = await randomNumberV1.create({}, { seed: 1, cwd: '/' });
    expect(tagger.tag(doc('😀ab'))[0]).toMatchObject({ start: 0, end: 4, type: 'random' });
  });
});
