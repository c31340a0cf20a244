// The MinHash conformance cases through runMinhashCase, plus its null / skip contract.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONFORMANCE } from '../../testing.js';
import { runMinhashCase } from './cases.js';

const cases = readFileSync(join(CONFORMANCE, 'datatrove/cases.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const minhash = cases.filter((c) => c.kind === 'dedup' && String(c.id).startsWith('minhash_'));

describe('DataTrove MinHash conformance', () => {
  it('finds the 5 MinHash cases and returns null for every other case', () => {
    expect(minhash.map((c) => c.id).sort()).toEqual(['minhash_clusters_1', 'minhash_multiworker_s2_1', 'minhash_sigfile_1', 'minhash_similarity_1', 'minhash_skip_sigs_1']);
    for (const c of cases) if (!minhash.includes(c)) expect(runMinhashCase(c)).toBeNull();
  });

  for (const c of minhash) {
    it(String(c.id), () => {
      const r = runMinhashCase(c);
      if (c.id === 'minhash_skip_sigs_1') expect(r?.status).toBe('skip');
      else expect(r).toEqual({ status: 'pass' });
    });
  }

  it('fails a clusters case whose expected removals are wrong', () => {
    const c = minhash.find((x) => x.id === 'minhash_clusters_1') as Record<string, unknown>;
    const bad = { ...c, expected_outcome: { ...(c.expected_outcome as object), removed_per_cluster: [1, 1, 4, 3, 0, 0] } };
    expect(runMinhashCase(bad)?.status).toBe('fail');
  });
});
