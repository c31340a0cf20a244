// DataTrove's 164 conformance cases: every filter, formatter, util and stats case runs here; the test prints the tally.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMinhashCase } from '../dedupe/minhash/cases.js';
import { runStatsCase } from '../stats/cases.js';
import { CONFORMANCE } from '../testing.js';
import { runDatatroveCase } from './taggers/datatrove/cases.js';
import { runLanguageCase } from './taggers/fasttext/cases.js';

type Outcome = { status: 'pass' } | { status: 'fail'; message: string } | { status: 'skip'; reason: string };
type Case = Record<string, unknown> & { id: string; kind: string; filter: string };

const cases = readFileSync(join(CONFORMANCE, 'datatrove/cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Case);

/** Kinds that belong to later issues (dedup: issue 4) or to DataTrove's executor machinery. */
const OUT_OF_SCOPE: Record<string, string> = {
  dedup: 'not implemented yet: sentence dedup, exact/URL dedup, exact substrings and bloom-filter dedup in DataTrove form',
  executor: "DataTrove's executor layout has no counterpart in Assay's tag runtime",
  integration: "DataTrove's exclusion writer has no counterpart: Assay taggers never drop documents",
};

const results = new Map<string, Outcome>();
function run(c: Case): Outcome {
  const minhash = runMinhashCase(c);
  if (minhash !== null) return minhash;
  const reason = OUT_OF_SCOPE[c.kind];
  if (reason) return { status: 'skip', reason };
  for (const runner of [runLanguageCase, runStatsCase, runDatatroveCase]) {
    const r = runner(c);
    if (r !== null) return r;
  }
  return { status: 'fail', message: `no runner handles ${c.kind}/${c.filter}` };
}

describe('DataTrove conformance cases', () => {
  for (const c of cases) {
    it(`${c.kind} ${c.id} (${c.filter})`, (ctx) => {
      const r = run(c);
      results.set(c.id, r);
      if (r.status === 'fail') expect.fail(r.message);
      if (r.status === 'skip') ctx.skip(r.reason);
    });
  }
});

afterAll(() => {
  const all = [...results.entries()];
  const by = (s: Outcome['status']): [string, Outcome][] => all.filter(([, r]) => r.status === s);
  const skips = by('skip') as [string, { status: 'skip'; reason: string }][];
  const lines = [
    `DataTrove conformance: ${all.length} cases — ran ${all.length - skips.length}, passed ${by('pass').length}, failed ${by('fail').length}, skipped ${skips.length}`,
    ...skips.map(([id, r]) => `  skipped ${id}: ${r.reason}`),
  ];
  process.stdout.write(lines.join('\n') + '\n');
});
