import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../testing.js';
import { runStatsCase, type CaseOutcome } from './cases.js';

const cases = readFileSync(join(CONFORMANCE, 'datatrove/cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const statsCases = cases.filter((c) => c.kind === 'stats');
const results = new Map<string, CaseOutcome>();

describe('DataTrove stats conformance cases', () => {
  it('finds the 17 stats cases and ignores other kinds', () => {
    expect(statsCases).toHaveLength(17);
    const other = cases.find((c) => c.kind !== 'stats');
    expect(other && runStatsCase(other)).toBeNull();
  });

  for (const c of statsCases) {
    it(`${String(c.id)} (${String(c.filter)})`, () => {
      const r = runStatsCase(c);
      expect(r).not.toBeNull();
      results.set(String(c.id), r as CaseOutcome);
      if (r?.status === 'fail') expect.fail(r.message);
    });
  }
});

afterAll(() => {
  const all = [...results.entries()];
  const skips = all.filter((e): e is [string, { status: 'skip'; reason: string }] => e[1].status === 'skip');
  const passed = all.filter(([, r]) => r.status === 'pass').length;
  process.stdout.write(
    [
      `DataTrove stats cases: ran ${all.length - skips.length}, passed ${passed}, skipped ${skips.length}`,
      ...skips.map(([id, r]) => `  skipped ${id}: ${r.reason}`),
    ].join('\n') + '\n',
  );
});
