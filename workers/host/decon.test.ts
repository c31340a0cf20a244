// decon.report and decon.items over the in-memory transport, on a workspace with hand-written decon attributes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVAL_TEXTS, writeDeconFixture } from '../engine/decon/report/fixture.js';
import { buildIndex } from '../engine/index/index.js';
import { scratchDir } from '../engine/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { failure, memoryHost, type MemoryHost } from './testing.js';

let open: MemoryHost | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('decon methods', () => {
  it('reports contamination over the indexed documents, saves it on request, and gives the inspector the items a document hits', async () => {
    const dir = scratchDir();
    writeDeconFixture(dir);
    open = memoryHost(dir, openPreviewEngine);
    const { client } = open;
    expect((await failure(client.invoke('decon.report', { name: 'decon' }))).message).toMatch(/no attribute index/);
    await buildIndex(dir);
    const r = await client.invoke('decon.report', { name: 'decon' });
    expect(r.files).toEqual(['documents/books.jsonl.gz', 'documents/web.jsonl']);
    expect(r.sets.map((s) => [s.set, s.hitItems, s.items, s.docs])).toEqual([['gsm8k', 1, 2, 1], ['mmlu', 2, 4, 3]]);
    expect(r.itemsFile).toBe('attributes/decon/.assay/decon-items.json');
    expect(r.written).toEqual([]);
    expect(existsSync(join(dir, 'attributes/decon/.assay/decon-report.json'))).toBe(false);
    const saved = await client.invoke('decon.report', { name: 'decon', write: true, top: 1 });
    expect(saved.written).toEqual(['attributes/decon/.assay/decon-report.json']);
    expect(saved.sets[1]!.top.map((t) => t.ref)).toEqual(['mmlu:q1']);
    const { written: _w, ...onDisk } = saved;
    expect(JSON.parse(readFileSync(join(dir, saved.written[0]!), 'utf8'))).toEqual(onDisk);
    expect((await failure(client.invoke('decon.report', { name: 'other' }))).message).toMatch(/attributes\/other\//);
    expect((await failure(client.invoke('decon.report', { name: '../x' }))).code).toBe('BAD_REQUEST');

    // The inspector: the document's hits come with its detail, their texts from decon.items.
    const w3 = await client.invoke('documents.get', { id: 'w3' });
    expect(w3.values['decon__decon__hits']).toEqual(['gsm8k:7', 'mmlu:q1']);
    expect(w3.spans.filter((s) => s.key === 'decon__decon__overlap')).toHaveLength(2);
    const items = await client.invoke('decon.items', { file: w3.file, set: 'decon', refs: ['gsm8k:7', 'mmlu:q1', 'mmlu:nope'] });
    expect(items).toEqual([
      { ref: 'gsm8k:7', set: 'gsm8k', id: '7', text: EVAL_TEXTS['gsm8k']!['7'] },
      { ref: 'mmlu:q1', set: 'mmlu', id: 'q1', text: EVAL_TEXTS['mmlu']!['q1'] },
      { ref: 'mmlu:nope', set: 'mmlu', id: 'nope', text: null },
    ]);
    expect((await failure(client.invoke('decon.items', { file: '../documents/web.jsonl', set: 'decon', refs: [] }))).code).toBe('FORBIDDEN');
  });

  it('takes exact token counts from an index that counted them, matching the index per source', async () => {
    const dir = scratchDir();
    writeDeconFixture(dir);
    await buildIndex(dir, { tokenizer: 'gpt2', search: false });
    open = memoryHost(dir, openPreviewEngine);
    const { client } = open;
    const r = await client.invoke('decon.report', { name: 'decon' });
    const sources = (await client.invoke('workspace.info', {})).sources;
    expect(sources.every((s) => s.tokensExact)).toBe(true);
    expect(r.sources.map((s) => [s.source, s.totalTokens])).toEqual(sources.map((s) => [s.source, { count: s.tokens, kind: 'exact' }]));
    expect(r.sets.map((s) => s.tokens.kind)).toEqual(['exact', 'exact']);
  });
});
