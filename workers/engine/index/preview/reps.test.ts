// RepStore: per-document replacement lists in the order they were added, as a Map of arrays held them.
import { describe, expect, it } from 'vitest';
import { rng } from '../../testing.js';
import { RepStore, type Rep } from './reps.js';

describe('RepStore', () => {
  it('gives each document its replacements in insertion order, like a Map of lists (5,000 random additions, growth included)', () => {
    const r = rng(5);
    const store = new RepStore();
    const want = new Map<number, Rep[]>();
    for (let k = 0; k < 3; k++) {
      for (let i = 0; i < 5000 / 3; i++) {
        const g = Math.floor(r() * 700);
        const rep: Rep = { start: Math.floor(r() * 50), end: 50 + r() * 10, replacement: ['', ' |||EMAIL||| ', `x${Math.floor(r() * 3)}`][Math.floor(r() * 3)] as string, rule: k };
        store.add(g, rep.start, rep.end, rep.replacement, k);
        const list = want.get(g) ?? [];
        list.push(rep);
        want.set(g, list);
      }
    }
    store.seal();
    for (let g = -1; g <= 701; g++) expect(store.get(g)).toEqual(want.get(g));
    expect([...store].map(([g]) => g)).toEqual([...want.keys()].sort((a, b) => a - b));
    expect([...store.values()].flat()).toHaveLength([...want.values()].flat().length);
    expect([...store.usedRules()].sort()).toEqual([0, 1, 2]);
    expect(() => store.add(1, 0, 1, '', 0)).toThrow(/after seal/);
  });
});
