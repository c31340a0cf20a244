// decon.report and decon.items over the in-memory transport, on a workspace with hand-written decon attributes; decon jobs launched as the app does.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EVAL_TEXTS, writeDeconFixture } from '../engine/decon/report/fixture.js';
import { buildIndex } from '../engine/index/index.js';
import { scratchDir, writeJsonl } from '../engine/testing.js';
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

describe('decon jobs', () => {
  it('a decon job from the app tags the documents, writes the items file and re-indexes; the report reads what it found', async () => {
    const dir = scratchDir();
    // The fixture's documents, without its hand-written attributes: the job writes its own.
    writeDeconFixture(dir, { items: false });
    rmSync(join(dir, 'attributes'), { recursive: true });
    for (const [set, items] of Object.entries(EVAL_TEXTS)) writeJsonl(join(dir, `evals/${set}.jsonl`), Object.entries(items).map(([id, question]) => ({ id, question })));
    mkdirSync(join(dir, 'configs'));
    const eval_ = Object.keys(EVAL_TEXTS).map((set) => `  - {name: ${set}, path: evals/${set}.jsonl, fields: [question], id_field: id}`).join('\n');
    const config = `name: decon\ndocuments: [documents/*]\neval:\n${eval_}\n`;
    writeFileSync(join(dir, 'configs/decon.yaml'), config);
    open = memoryHost(dir, openPreviewEngine);
    const h = open;
    // The workspace's configs offer it as a decon config.
    expect((await h.client.invoke('workspace.info', {})).configs.find((c) => c.path === 'configs/decon.yaml')?.kinds).toEqual(['decon']);
    const job = await h.client.invoke('jobs.start', { kind: 'decon', configPath: 'configs/decon.yaml' });
    const done = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(done.error).toBeUndefined();
    expect(done).toMatchObject({ state: 'done', outputs: ['attributes/decon'] });
    expect(done.summary).toBe('decon: mmlu 4 item(s), gsm8k 2 item(s) (index built); tagged 2 file(s), 6 docs');
    // The index sits beside the config, as for `assay decon -c`; the items file beside the attributes.
    expect(existsSync(join(dir, 'configs/decon.decon.idx'))).toBe(true);
    expect(existsSync(join(dir, 'attributes/decon/.assay/decon-items.json'))).toBe(true);
    expect(h.events.some((e) => e.event === 'index.updated' && (e.payload as { docs: number }).docs === 6)).toBe(true);
    // Items of 13 words or more are found where the fixture planted them (q3, q4 and gsm8k 8 are shorter than n).
    const r = await h.client.invoke('decon.report', { name: 'decon' });
    expect(r.sets.map((s) => [s.set, s.hitItems, s.items, s.docs])).toEqual([['gsm8k', 1, 2, 1], ['mmlu', 2, 4, 3]]);
    expect((await h.client.invoke('documents.get', { id: 'w3' })).values['decon__decon__hits']).toEqual(['gsm8k:7', 'mmlu:q1']);

    // Inline text: its default index goes beside the text, which is kept under .assay/runs/ (an index elsewhere is
    // another tagger configuration, so the files are tagged again).
    const again = await h.client.invoke('jobs.start', { kind: 'decon', configText: config });
    const end = await h.next('job.state', (j) => j.jobId === again.jobId && j.state !== 'running', 60_000);
    expect(end.error).toBeUndefined();
    expect(end.summary).toBe('decon: mmlu 4 item(s), gsm8k 2 item(s) (index built); tagged 2 file(s), 6 docs');
    expect(existsSync(join(dir, '.assay/runs/decon.decon.idx'))).toBe(true);
    expect(readFileSync(join(dir, '.assay/runs/decon.decon.idx')).equals(readFileSync(join(dir, 'configs/decon.decon.idx')))).toBe(true);

    // A missing eval file fails the job, naming it.
    writeFileSync(join(dir, 'configs/missing.yaml'), config.replace('evals/gsm8k.jsonl', 'evals/nope.jsonl').replace('name: decon', 'name: other'));
    const bad = await h.client.invoke('jobs.start', { kind: 'decon', configPath: 'configs/missing.yaml' });
    const failed = await h.next('job.state', (j) => j.jobId === bad.jobId && j.state !== 'running', 60_000);
    expect(failed.state).toBe('failed');
    expect(failed.error).toMatch(/evals\/nope\.jsonl/);
  });
});
