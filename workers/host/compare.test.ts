// preview.diff and documents.page/export under comparison (issue 13.4, the app's side): baselines, changed pages, errors, the worker thread.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DocumentRow } from '../../shared/contract/index.js';
import { parseCsv } from '../../shared/csv-read.js';
import { buildIndex, PreviewEngine } from '../engine/index/index.js';
import { parseMixerConfig } from '../engine/mix/config.js';
import { runMix } from '../engine/mix/mixer.js';
import { runTag } from '../engine/tag/runtime.js';
import { scratchDir } from '../engine/testing.js';
import { HostClient } from './client.js';
import { openPreviewEngine } from './engine-adapter.js';
import { createHost, type Host } from './host.js';
import { failure, makeWorkspace, memoryHost } from './testing.js';
import { memoryPair } from './transport.js';

let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers) await c();
  closers = [];
});

const LEN = 'lengths__whitespace_tokenizer_v1__length';
/** Two streams over the two files, each with two length rules: `a`/`b` are the thresholds of the first stream's rules. */
function recipe(a: number, b: number): string {
  const rule = (op: string, n: number) => `"$.attributes[?(@.${LEN} && @.${LEN}[0] && @.${LEN}[0][2] ${op} ${n})]"`;
  return [
    'streams:',
    '  - name: one',
    '    documents: [documents/part-0.jsonl.gz]',
    '    attributes: [lengths]',
    '    output: {path: output/one}',
    '    filter:',
    `      exclude: [${rule('<', a)}, ${rule('>', b)}]`,
    '  - name: two',
    '    documents: [documents/part-1.jsonl.gz]',
    '    attributes: [lengths]',
    '    output: {path: output/two}',
    '    filter:',
    `      exclude: [${rule('<', 30)}]`,
    '',
  ].join('\n');
}

async function indexed(docs = 60): Promise<string> {
  const dir = makeWorkspace(scratchDir(), { files: 2, docs });
  await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
  await buildIndex(dir);
  writeFileSync(join(dir, 'recipes/old.yaml'), recipe(40, 100));
  return dir;
}

function inProcess(dir: string) {
  const h = memoryHost(dir, openPreviewEngine);
  closers.push(h.close);
  return h.client;
}

function onWorker(dir: string, graceMs = 10_000): { host: Host; client: HostClient } {
  const pair = memoryPair();
  const host = createHost({ workspace: dir, endpoint: pair.host, preview: { graceMs } });
  const client = new HostClient(pair.client);
  closers.push(async () => {
    await host.close();
    await client.close();
  });
  return { host, client };
}

describe('preview.diff', () => {
  it('answers what the engine diff answers, against a text, a recipe file or a past mix run', async () => {
    const dir = await indexed();
    const client = inProcess(dir);
    const now = recipe(60, 90);
    const expected = PreviewEngine.open(dir);
    const want = expected.diff(recipe(40, 100), now, { samples: 5 });
    expected.close();
    expect(want.changed.docs).toBeGreaterThan(0);
    const strip = ({ elapsedMs: _e, baseline: _b, ...rest }: { elapsedMs: number; baseline?: unknown }) => rest;
    const byText = await client.invoke('preview.diff', { recipeText: now, against: { text: recipe(40, 100), label: 'saved' }, samples: 5 });
    expect(strip(byText)).toEqual(strip(want));
    expect(byText.baseline).toMatchObject({ kind: 'text', label: 'saved' });
    const byFile = await client.invoke('preview.diff', { recipeText: now, against: { recipe: 'recipes/old.yaml' }, samples: 5 });
    expect(strip(byFile)).toEqual(strip(want));
    expect(byFile.baseline).toMatchObject({ kind: 'recipe', label: 'recipes/old.yaml', path: 'recipes/old.yaml', text: recipe(40, 100) });
    // A past run: the recipe its manifest recorded (run from the workspace, as the app's jobs are).
    await runMix(parseMixerConfig(recipe(40, 100), 'old.yaml'), { cwd: dir, processes: 1 });
    const byRun = await client.invoke('preview.diff', { recipeText: now, against: { run: 'output/one' }, samples: 5 });
    expect(strip(byRun)).toEqual(strip(want));
    expect(byRun.baseline).toMatchObject({ kind: 'run', path: 'output/one', ended: expect.any(String) as string });
    expect(byRun.baseline.label).toMatch(/^run → output\/one \(/);
    // Its manifest file names the same run; the same recipe compares as unchanged.
    const same = await client.invoke('preview.diff', { recipeText: recipe(40, 100), against: { run: 'output/one/.assay/manifest.json' } });
    expect(same.changed.docs).toBe(0);
  });

  it('refuses what is not a recipe to compare with, naming it', async () => {
    const dir = await indexed(10);
    const client = inProcess(dir);
    const recipeText = recipe(40, 100);
    expect(await failure(client.invoke('preview.diff', { recipeText, against: { run: '../elsewhere' } }))).toMatchObject({ code: 'FORBIDDEN', field: 'against.run' });
    expect(await failure(client.invoke('preview.diff', { recipeText, against: { recipe: '../x.yaml' } }))).toMatchObject({ code: 'FORBIDDEN' });
    const none = await failure(client.invoke('preview.diff', { recipeText, against: { run: 'documents' } }));
    expect(none).toMatchObject({ code: 'NOT_FOUND', field: 'against.run' });
    expect(none.message).toMatch(/no run manifest in this folder/);
    // The tagger's manifest: a run, but not one with a recipe.
    const tag = await failure(client.invoke('preview.diff', { recipeText, against: { run: 'attributes/lengths' } }));
    expect(tag).toMatchObject({ code: 'BAD_REQUEST', field: 'against.run' });
    expect(tag.message).toMatch(/manifest of a tag run, which has no recipe/);
    const broken = await failure(client.invoke('preview.diff', { recipeText, against: { text: 'streams: [' } }));
    expect(broken.code).toBe('CONFIG');
  });
});

describe('documents.page under comparison', () => {
  it('lists exactly the changed documents with old → new fates, by change, by group, paged, with other filters', async () => {
    const dir = await indexed();
    const client = inProcess(dir);
    const oldText = recipe(40, 100);
    const recipeText = recipe(60, 90);
    const d = await client.invoke('preview.diff', { recipeText, against: { text: oldText }, samples: 1000 });
    const all = d.groups.flatMap((g) => g.sampleIds.map((id) => ({ id, change: g.change, from: g.from, to: g.to, stream: g.stream })));
    expect(all).toHaveLength(d.changed.docs);
    // Every changed document, over small pages, each row with its change.
    const rows: DocumentRow[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await client.invoke('documents.page', { offset, limit: 7, recipeText, compare: { oldText, change: 'any' } });
      expect(page.total).toBe(d.changed.docs);
      rows.push(...page.rows);
      if (page.rows.length < 7) break;
    }
    expect(rows.map((r) => r.id).sort()).toEqual(all.map((c) => c.id).sort());
    for (const r of rows) {
      const c = all.find((x) => x.id === r.id);
      expect(r.change).toEqual({ stream: c?.stream, change: c?.change, from: c?.from, to: c?.to });
      // The row's own fate is the new recipe's.
      expect(r.fate).toBe(c?.to.fate);
      if (c?.to.rule !== undefined) expect(r.droppedBy).toBe(c.to.rule);
    }
    // One group: exactly its documents.
    const g = d.groups[0]!;
    const group = { stream: g.stream, change: g.change, ...(g.from.rule !== undefined && { fromRule: g.from.rule }), ...(g.to.rule !== undefined && { toRule: g.to.rule }) };
    const gp = await client.invoke('documents.page', { offset: 0, limit: 1000, recipeText, compare: { oldText, group } });
    expect(gp.rows.map((r) => r.id)).toEqual(g.sampleIds);
    expect(gp.total).toBe(g.docs);
    // One kind of change, with a source filter and a sort on top (the engine's own filtering).
    const kind = await client.invoke('documents.page', { offset: 0, limit: 1000, recipeText, compare: { oldText, change: 'kept→dropped' }, source: 'web', sort: { column: 'chars', desc: true } });
    const want = all.filter((c) => c.change === 'kept→dropped' && rows.find((r) => r.id === c.id)?.source === 'web').map((c) => c.id);
    expect(kind.rows.map((r) => r.id).sort()).toEqual(want.sort());
    expect(kind.rows.map((r) => r.chars)).toEqual([...kind.rows.map((r) => r.chars)].sort((a, b) => b - a));
    // Without a change filter: every document, the changed ones annotated.
    const every = await client.invoke('documents.page', { offset: 0, limit: 1000, recipeText, compare: { oldText } });
    expect(every.total).toBe(120);
    expect(every.rows.filter((r) => r.change !== undefined).map((r) => r.id).sort()).toEqual(all.map((c) => c.id).sort());
    expect(await failure(client.invoke('documents.page', { offset: 0, limit: 5, compare: { oldText } }))).toMatchObject({ code: 'BAD_REQUEST', field: 'compare' });
  });

  it('exports the changed documents the table lists', async () => {
    const dir = await indexed();
    const client = inProcess(dir);
    const oldText = recipe(40, 100);
    const recipeText = recipe(60, 90);
    const page = await client.invoke('documents.page', { offset: 0, limit: 1000, recipeText, compare: { oldText, change: 'any' } });
    const out = await client.invoke('documents.export', { query: { recipeText, compare: { oldText, change: 'any' } }, format: 'csv', path: 'exports/changed.csv' });
    expect(out.rows).toBe(page.total);
    const [head, ...lines] = parseCsv(readFileSync(join(dir, 'exports/changed.csv'), 'utf8'));
    expect(lines.map((l) => l[head!.indexOf('id')]).sort()).toEqual(page.rows.map((r) => r.id).sort());
  });
});

/** Every rule needs the exact evaluator on every document: slow in proportion to `rules`, interruptible. */
function slowRecipe(rules: number, tag: string): string {
  const lines = Array.from({ length: rules }, (_, i) => `        - "$[?(@.text ~= 'zq${i}${tag}')]"`);
  return `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    output: {path: output/s}\n    filter:\n      exclude:\n${lines.join('\n')}\n`;
}

describe('comparison on the preview worker thread', () => {
  it('serves diffs and changed pages there; a newer diff cancels an older one, and the host answers meanwhile', async () => {
    const dir = makeWorkspace(scratchDir(), { files: 4, docs: 4000, words: 60 });
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
    await buildIndex(dir);
    const { client } = onWorker(dir);
    await client.invoke('workspace.info', {});
    const older = client.call('preview.diff', { recipeText: slowRecipe(60, 'a'), against: { text: slowRecipe(60, 'b') } });
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    await client.invoke('workspace.info', {});
    expect(performance.now() - t).toBeLessThan(1000);
    const base = 'streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    attributes: [lengths]\n    output: {path: output/s}\n    filter:\n      exclude:';
    const rule = (n: number) => ` ["$.attributes[?(@.${LEN} && @.${LEN}[0] && @.${LEN}[0][2] < ${n})]"]\n`;
    const oldText = base + rule(0);
    const recipeText = base + rule(30);
    const newer = await client.invoke('preview.diff', { recipeText, against: { text: oldText } });
    expect(await older).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(newer.changed.docs).toBeGreaterThan(0);
    expect(Object.keys(newer.byChange)).toEqual(['kept→dropped']);
    const page = await client.invoke('documents.page', { offset: 0, limit: 50, recipeText, compare: { oldText, change: 'any' } });
    expect(page.total).toBe(newer.changed.docs);
    expect(page.rows.every((r) => r.change?.change === 'kept→dropped' && r.fate === 'dropped')).toBe(true);
  }, 120_000);
});
