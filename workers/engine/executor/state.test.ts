// Completion markers: valid while their inputs are unchanged; one look at a run stats each input once.
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../testing.js';
import { doneTasks, markComplete, type StampCache } from './state.js';

describe('completion markers', () => {
  it('hold while the inputs are unchanged, and tasks sharing inputs stat each file once per look', async () => {
    const dir = scratchDir();
    const inputs = ['a', 'b', 'c'].map((n) => join(dir, `${n}.jsonl`));
    for (const p of inputs) writeFileSync(p, '{}\n');
    // Three bucket-like tasks that each list every input, as dedupe's and MinHash's do.
    const tasks = [0, 1, 2].map(() => ({ inputs, argv: null }));
    for (const i of [0, 1, 2]) await markComplete(join(dir, 'logs'), i, inputs, 0.1, 'buckets');
    const cache: StampCache = new Map();
    expect(await doneTasks(join(dir, 'logs'), tasks, 'buckets', cache)).toEqual([0, 1, 2]);
    expect([...cache.keys()].sort()).toEqual([...inputs].sort());
    utimesSync(inputs[1]!, new Date(), new Date(Date.now() + 5000));
    expect(await doneTasks(join(dir, 'logs'), tasks, 'buckets')).toEqual([]);
    expect(await doneTasks(join(dir, 'logs'), tasks)).toEqual([]);
  });
});
