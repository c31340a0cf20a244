// The contamination report over hand-written decon attributes: fractions, per-source documents and tokens, top items, the saved file and the manifest.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../manifest/read.js';
import { writeRunManifest } from '../../manifest/write.js';
import { scratchDir, writeJsonl } from '../../testing.js';
import { EVAL_TEXTS, FIXTURE_DOCS, fixtureText, writeDeconFixture } from './fixture.js';
import { formatDeconReport, indexTokenLookup, readEvalItems, runDeconReport, writeEvalItemsFile } from './index.js';

const est = (ids: string[]): number => ids.reduce((n, id) => n + Math.ceil(Buffer.byteLength(fixtureText(FIXTURE_DOCS.find((d) => d.id === id)!)) / 4), 0);

describe('decon report', () => {
  it('counts items hit per eval set, documents and estimated tokens per source, and ranks items by documents', async () => {
    const root = scratchDir();
    writeDeconFixture(root);
    const { report, written } = await runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: root });
    expect(report.docs).toBe(6);
    expect(report.contaminated).toBe(3);
    expect(report.ngrams).toBe(19);
    const [gsm, mmlu] = report.sets;
    expect(mmlu).toMatchObject({ set: 'mmlu', items: 4, hitItems: 2, fraction: 0.5, docs: 3, tokens: { count: est(['w1', 'w3', 'b1']), kind: 'estimate' } });
    expect(gsm).toMatchObject({ set: 'gsm8k', items: 2, hitItems: 1, fraction: 0.5, docs: 1, tokens: { count: est(['w3']), kind: 'estimate' } });
    expect(mmlu!.bySource).toEqual([
      { source: 'books', docs: 1, tokens: { count: est(['b1']), kind: 'estimate' }, totalDocs: 2, totalTokens: { count: est(['b1', 'b2']), kind: 'estimate' } },
      { source: 'web', docs: 2, tokens: { count: est(['w1', 'w3']), kind: 'estimate' }, totalDocs: 4, totalTokens: { count: est(['w1', 'w2', 'w3', 'w4']), kind: 'estimate' } },
    ]);
    expect(mmlu!.top).toEqual([
      { ref: 'mmlu:q1', id: 'q1', docs: 2, documents: ['w1', 'w3'], text: EVAL_TEXTS['mmlu']!['q1'] },
      { ref: 'mmlu:q2', id: 'q2', docs: 1, documents: ['b1'], text: EVAL_TEXTS['mmlu']!['q2'] },
    ]);
    expect(report.sources.map((s) => [s.source, s.docs, s.totalDocs])).toEqual([['books', 1, 2], ['web', 2, 4]]);
    // Saved as printed; no manifest in this folder, so none is touched.
    expect(written).toHaveLength(1);
    expect(written[0]!.manifest).toBeNull();
    expect(JSON.parse(readFileSync(join(root, 'attributes/decon/.assay/decon-report.json'), 'utf8'))).toEqual(report);
    const table = formatDeconReport(report);
    expect(table).toMatch(/mmlu\s+4\s+2\s+50\.0 %\s+3\s+≈/);
    expect(table).toContain('mmlu:q1  2 docs  "which planet');
  });

  it('lists every eval set of the items file, untouched ones at 0 %, and says what it cannot know without one', async () => {
    const root = scratchDir();
    writeDeconFixture(root);
    const clean = { mmlu: { count: 4, items: EVAL_TEXTS['mmlu'] }, gsm8k: { count: 2, items: EVAL_TEXTS['gsm8k'] }, arc: { count: 10, items: {} } };
    writeFileSync(join(root, 'attributes/decon/.assay/decon-items.json'), JSON.stringify({ schema: 'assay.decon-items', version: 1, sets: clean }));
    const withArc = await runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: root, write: false });
    expect(withArc.report.sets.find((s) => s.set === 'arc')).toMatchObject({ items: 10, hitItems: 0, fraction: 0, docs: 0, top: [] });

    const bare = scratchDir();
    writeDeconFixture(bare, { items: false });
    const { report } = await runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: bare, write: false });
    expect(report.sets.map((s) => [s.set, s.items, s.hitItems, s.fraction])).toEqual([['gsm8k', null, 1, null], ['mmlu', null, 2, null]]);
    expect(report.sets[1]!.top[0]!.text).toBeNull();
    expect(report.notes.join(' ')).toMatch(/no eval items file/);
    const wrongName = await runDeconReport({ documents: ['documents/*'], name: 'other', attributeSet: 'decon', cwd: bare, write: false });
    expect(wrongName.report.notes.join(' ')).toMatch(/no document carries other__decon__ngrams/);
  });

  it('uses exact token counts where the lookup has them, and labels a mix as an estimate', async () => {
    const root = scratchDir();
    writeDeconFixture(root);
    const exactWeb = async (file: string) => (file.endsWith('web.jsonl') ? (line: number) => line * 100 : null);
    const { report } = await runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: root, write: false, tokens: exactWeb });
    const gsm = report.sets.find((s) => s.set === 'gsm8k')!;
    expect(gsm.tokens).toEqual({ count: 300, kind: 'exact' }); // w3 is line 3 of web.jsonl
    const mmlu = report.sets.find((s) => s.set === 'mmlu')!;
    expect(mmlu.tokens).toEqual({ count: 100 + 300 + est(['b1']), kind: 'estimate' });
    expect(mmlu.bySource.find((s) => s.source === 'web')!.tokens).toEqual({ count: 400, kind: 'exact' });
  });

  it('refuses attribute files that do not mirror the documents, naming the file and line', async () => {
    const root = scratchDir();
    writeDeconFixture(root);
    writeJsonl(join(root, 'attributes/decon/web.jsonl'), [{ id: 'w1', attributes: {} }, { id: 'zz', attributes: {} }]);
    await expect(runDeconReport({ documents: ['documents/web.jsonl'], name: 'decon', cwd: root, write: false })).rejects.toThrow(/web\.jsonl:2: id "zz" does not match/);
    writeJsonl(join(root, 'attributes/decon/web.jsonl'), [{ id: 'w1', attributes: {} }]);
    await expect(runDeconReport({ documents: ['documents/web.jsonl'], name: 'decon', cwd: root, write: false })).rejects.toThrow(/ends at line 1/);
    await expect(runDeconReport({ documents: ['documents/none*'], name: 'decon', cwd: root })).rejects.toThrow(/no documents file matches/);
    await expect(runDeconReport({ documents: ['documents/web.jsonl'], name: 'x', cwd: root })).rejects.toThrow(/no decon attributes for this documents file/);
  });

  it('lists the report in the run manifest without changing its content hash; manifests without reports still load', async () => {
    const root = scratchDir();
    writeDeconFixture(root);
    const folder = join(root, 'attributes/decon');
    const files = ['web.jsonl', 'books.jsonl.gz'].map((f) => join(folder, f));
    const manifestPath = await writeRunManifest(folder, { stage: 'tag', started: new Date(), config: { name: 'decon' } }, [], files.map((path) => ({ path, role: 'attributes', size: 1, sha256: 'a'.repeat(64), docs: 1, tokens: null })));
    const before = await loadManifest(manifestPath);
    expect(before.manifest.reports).toBeUndefined();
    const { written } = await runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: root });
    expect(written[0]!.manifest).toBe(manifestPath);
    const after = await loadManifest(manifestPath);
    const bytes = readFileSync(join(folder, '.assay/decon-report.json'));
    expect(after.manifest.reports).toEqual([{ path: '.assay/decon-report.json', role: 'decon-report', size: bytes.length, sha256: written[0]!.sha256 }]);
    expect(written[0]!.sha256).toBe((await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'));
    expect(after.contentSha256).toBe(before.contentSha256);
    expect(after.sha256).not.toBe(before.sha256);
    // Again: one entry, replaced.
    await runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: root });
    expect((await loadManifest(manifestPath)).manifest.reports).toHaveLength(1);
    // A damaged manifest is refused by name and no report is written beside it.
    writeFileSync(manifestPath, '{"schema":"assay.run-manifest","version":1}');
    await expect(runDeconReport({ documents: ['documents/*'], name: 'decon', cwd: root })).rejects.toThrow(/manifest\.json: invalid run manifest/);
  });

  it('writes the items file from the decon index shape, which the report reads back', async () => {
    const folder = scratchDir();
    await writeEvalItemsFile(folder, { sets: [{ name: 'mmlu', items: 3 }], items: [{ key: 'mmlu:a:b', text: 'colon id' }, { key: 'mmlu:c', text: 'plain' }] });
    const items = (await readEvalItems(folder))!;
    expect(items.counts.get('mmlu')).toBe(3);
    expect(items.text('mmlu', 'a:b')).toBe('colon id');
    expect(items.text('mmlu', 'zz')).toBeNull();
    writeFileSync(join(folder, '.assay/decon-items.json'), JSON.stringify({ schema: 'assay.decon-items', version: 1, sets: { x: { items: [1] } } }));
    await expect(readEvalItems(folder)).rejects.toThrow(/decon-items\.json: not an eval items file/);
  });

  it('reads exact counts from the index only for files indexed at their present size', async () => {
    const root = scratchDir();
    writeDeconFixture(root);
    const size = readFileSync(join(root, 'documents/web.jsonl')).length;
    const asked: string[] = [];
    const lookup = indexTokenLookup(root, {
      fileTokens: async (path) => {
        asked.push(path);
        return path === 'documents/web.jsonl' ? { bytes: size, counts: [7, null, 9, 11] } : { bytes: 1, counts: [5, 5] };
      },
    });
    const web = (await lookup(join(root, 'documents/web.jsonl')))!;
    expect([1, 2, 3, 4, 5].map(web)).toEqual([7, null, 9, 11, null]);
    expect(await lookup(join(root, 'documents/books.jsonl.gz'))).toBeNull();
    expect(asked).toEqual(['documents/web.jsonl', 'documents/books.jsonl.gz']);
  });
});
