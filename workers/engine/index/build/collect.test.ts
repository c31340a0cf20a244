// Columns built on buffers another file's columns used are exactly those built on fresh ones.
import { describe, expect, it } from 'vitest';
import { rng } from '../../testing.js';
import { unpack } from '../store/pack.js';
import { ColumnSet, dropSpareBuffers } from './collect.js';

const ARRAYS = { ords: 'u32', tags: 'u8', nums: 'f64', counts: 'u32', starts: 'u32', ends: 'u32', laterScores: 'f64' } as const;

/** An attribute file's columns: `docs` documents, some keys on some documents only, spans of 1–3 elements. */
function file(seed: number, docs: number, sized: boolean): unknown[] {
  const r = rng(seed);
  const set = new ColumnSet(2, [], sized ? docs : 0);
  for (let ord = 0; ord < docs; ord++) {
    const attrs: Record<string, unknown> = { score: [[0, 10 + ord, r()]] };
    if (r() < 0.6) attrs.sparse = Array.from({ length: 1 + Math.floor(r() * 3) }, (_, i) => [i, i + 5, r()]);
    if (r() < 0.3) attrs.n = Math.floor(r() * 100);
    if (r() < 0.1) attrs.odd = [[1, 2]];
    set.addObject(ord, attrs);
  }
  return set.columns().map((c) => {
    const u = unpack(c.blob);
    return { path: c.path, present: c.present, ...Object.fromEntries(Object.entries(ARRAYS).map(([k, kind]) => [k, [...u[kind](k)]])) };
  });
}

describe('ColumnSet spare buffers', () => {
  it('a file read after others (larger, smaller, grown by doubling) gets the columns it gets alone', () => {
    const plan = [
      { seed: 1, docs: 30_000, sized: true },
      { seed: 2, docs: 12_000, sized: false },
      { seed: 3, docs: 40_000, sized: true },
      { seed: 4, docs: 9_000, sized: true },
    ];
    const alone = plan.map((p) => {
      dropSpareBuffers();
      return file(p.seed, p.docs, p.sized);
    });
    dropSpareBuffers();
    // Twice in a row: the second round runs on buffers every file of the first one left.
    for (let round = 0; round < 2; round++) plan.forEach((p, i) => expect(file(p.seed, p.docs, p.sized), `file ${i}, round ${round}`).toEqual(alone[i]));
    dropSpareBuffers();
  });
});
