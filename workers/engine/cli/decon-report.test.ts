// `assay decon report` after a real `assay decon`: the report of its attributes and items file, saved and listed in the run's manifest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeconReport } from '../../../shared/contract/decon.js';
import { scratchDir, writeJsonl } from '../testing.js';
import { ensureBuilt, runCli } from './run-cli.js';

beforeAll(() => ensureBuilt(), 120_000);

const Q = ['which river runs through the old town and past the market where farmers sell bread every morning', 'what colour is the painted bridge over the harbour near the station in the village'];

describe('assay decon report', () => {
  it('reports what assay decon tagged, per eval set and source, and lists the report in the run manifest', () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'data/documents/a.jsonl'), [
      { id: 'd1', source: 'web', text: `Intro. ${Q[0]}? Outro.` },
      { id: 'd2', source: 'web', text: 'a plain page about cooking rice and beans, nothing else.' },
      { id: 'd3', source: 'books', text: `Chapter one. ${Q[0]}. The end.` },
    ]);
    writeJsonl(join(dir, 'evals/qa.jsonl'), [...Q, 'a third question that no document quotes anywhere in the whole corpus at all'].map((q, k) => ({ id: `x${k}`, question: q })));
    const decon = runCli(['decon', '--documents', 'data/documents/*', '--eval', 'evals/qa.jsonl', '--eval-fields', 'question', '--eval-id-field', 'id', '--name', 'ctm', '--quiet'], { cwd: dir });
    expect(decon.code, decon.stderr).toBe(0);

    const r = runCli(['decon', 'report', '--documents', 'data/documents/*', '--name', 'ctm', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as DeconReport;
    expect(report.sets).toHaveLength(1);
    expect(report.sets[0]).toMatchObject({ set: 'qa', items: 3, hitItems: 1, docs: 2 });
    expect(report.sets[0]!.fraction).toBeCloseTo(1 / 3, 12);
    expect(report.sets[0]!.top).toEqual([{ ref: 'qa:x0', id: 'x0', docs: 2, documents: ['d1', 'd3'], text: Q[0] }]);
    expect(report.sets[0]!.bySource.map((s) => [s.source, s.docs, s.totalDocs])).toEqual([['books', 1, 1], ['web', 1, 2]]);

    const saved = join(dir, 'data/attributes/ctm/.assay/decon-report.json');
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual(report);
    const m = runCli(['manifest', 'data/attributes/ctm', '--json'], { cwd: dir });
    expect(m.code, m.stderr).toBe(0);
    const manifest = JSON.parse(m.stdout) as { reports?: { path: string; role: string }[] };
    expect(manifest.reports).toEqual([expect.objectContaining({ path: '.assay/decon-report.json', role: 'decon-report' })]);

    const table = runCli(['decon-report', '--documents', 'data/documents/*', '--name', 'ctm'], { cwd: dir });
    expect(table.stdout).toMatch(/qa\s+3\s+1\s+33\.3 %\s+2/);
    expect(table.stdout).toContain('(listed in');
    expect(runCli(['decon', 'report', 'extra', '--name', 'ctm', '--documents', 'x'], { cwd: dir }).code).toBe(2);

    // With an index that counted tokens, the figures are exact and add up to the index's per-source totals.
    const ix = runCli(['index', 'data', '--tokenizer', 'gpt2', '--no-search', '--quiet'], { cwd: dir });
    expect(ix.code, ix.stderr).toBe(0);
    const exact = JSON.parse(runCli(['decon', 'report', '--documents', 'data/documents/*', '--name', 'ctm', '--index', 'data', '--json'], { cwd: dir }).stdout) as DeconReport;
    const indexed = JSON.parse(runCli(['manifest', 'data', '--json'], { cwd: dir }).stdout) as { totals: { bySource: Record<string, { tokens: { count: number; kind: string } }> } };
    expect(Object.fromEntries(exact.sources.map((s) => [s.source, s.totalTokens]))).toEqual(Object.fromEntries(Object.entries(indexed.totals.bySource).map(([k, v]) => [k, v.tokens])));
    expect(exact.sets[0]!.tokens.kind).toBe('exact');
    expect(exact.sets[0]!.tokens.count).not.toBe(report.sets[0]!.tokens.count);
  });
});
