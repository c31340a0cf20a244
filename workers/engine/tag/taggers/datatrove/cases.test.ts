// DataTrove's filter, formatter and util conformance cases, run through these taggers the way a recipe would.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../../../testing.js';
import { runDatatroveCase, type CaseOutcome } from './cases.js';

const cases = readFileSync(join(CONFORMANCE, 'datatrove/cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown> & { id: string; kind: string; filter: string });

const results = new Map<string, CaseOutcome>();

describe('DataTrove conformance (filter, formatter, util)', () => {
  const mine = cases.filter((c) => ['filter', 'formatter', 'util'].includes(c.kind) && c.filter !== 'LanguageFilter');
  for (const c of mine) {
    it(`${c.kind} ${c.id} (${c.filter})`, () => {
      const r = runDatatroveCase(c);
      expect(r, 'every filter/formatter/util case other than LanguageFilter is handled here').not.toBeNull();
      results.set(c.id, r as CaseOutcome);
      if (r?.status === 'fail') expect.fail(r.message);
    });
  }

  it('leaves language-id, stats and dedup cases to their own runners', () => {
    for (const c of cases.filter((x) => x.filter === 'LanguageFilter' || ['stats', 'dedup', 'executor'].includes(x.kind))) {
      expect(runDatatroveCase(c)).toBeNull();
    }
  });
});

afterAll(() => {
  const all = [...results.entries()];
  const skipped = all.filter(([, r]) => r.status === 'skip') as Array<[string, { status: 'skip'; reason: string }]>;
  const passed = all.filter(([, r]) => r.status === 'pass').length;
  const lines = [
    `DataTrove filters/formatters/utils: ran ${all.length - skipped.length}, passed ${passed}, skipped ${skipped.length}`,
    ...skipped.map(([id, r]) => `  skipped ${id}: ${r.reason}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
});
