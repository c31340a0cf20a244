// runs.manifest and runs.locate (issue 13.4, a run's page in the app): the manifest with its chain, and the ledger searched in the run's folder.
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../engine/index/index.js';
import { parseMixerConfig } from '../engine/mix/config.js';
import { runMix } from '../engine/mix/mixer.js';
import { runTag } from '../engine/tag/runtime.js';
import { readJsonlFile, tempDir } from '../engine/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { failure, makeWorkspace, memoryHost, type MemoryHost } from './testing.js';

const LEN = 'lengths__whitespace_tokenizer_v1__length';
const RECIPE = [
  'streams:',
  '  - name: s',
  '    documents: [documents/*.jsonl.gz]',
  '    attributes: [lengths]',
  '    output: {path: output/s}',
  '    filter:',
  `      exclude: ["$.attributes[?(@.${LEN} && @.${LEN}[0] && @.${LEN}[0][2] < 40)]"]`,
  '',
].join('\n');

describe('a run’s page', () => {
  const tmp = tempDir('assay-run-page-');
  const dir = tmp.dir;
  let h: MemoryHost;
  beforeAll(async () => {
    makeWorkspace(dir, { files: 2, docs: 30 });
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
    await buildIndex(dir);
    writeFileSync(join(dir, 'recipes/run.yaml'), RECIPE);
    await runMix(parseMixerConfig(RECIPE, 'run.yaml'), { cwd: dir, processes: 1 });
    h = memoryHost(dir, openPreviewEngine);
  }, 120_000);
  afterAll(async () => {
    await h?.close();
    tmp.cleanup();
  });

  it('shows the manifest, with the chain of runs it consumed as workspace paths', async () => {
    const v = await h.client.invoke('runs.manifest', { path: 'output/s' });
    const raw = readFileSync(join(dir, 'output/s/.assay/manifest.json'));
    expect(v).toMatchObject({ path: 'output/s/.assay/manifest.json', folder: 'output/s', ledger: true, sha256: createHash('sha256').update(raw).digest('hex') });
    const m = JSON.parse(raw.toString()) as { configSha256: string; totals: { docs: number } };
    expect(v.manifest.stage).toBe('mix');
    expect(v.manifest.configSha256).toBe(m.configSha256);
    expect(v.manifest.totals.docs).toBe(m.totals.docs);
    expect(v.manifest.outputs.every((o) => /^[0-9a-f]{64}$/.test(o.sha256))).toBe(true);
    expect(v.manifest.inputs.some((i) => i.role === 'documents')).toBe(true);
    // The run, then the tagger's run it read attributes from (a link the page can open).
    expect(v.chain[0]).toMatchObject({ depth: 0, stage: 'mix', folder: 'output/s', inside: true });
    const tag = v.chain.find((c) => c.stage === 'tag');
    expect(tag).toMatchObject({ depth: 1, folder: 'attributes/lengths', path: 'attributes/lengths/.assay/manifest.json', inside: true, status: 'same' });
    const parent = await h.client.invoke('runs.manifest', { path: tag!.path });
    expect(parent).toMatchObject({ folder: 'attributes/lengths', ledger: false });
    expect(parent.manifest.stage).toBe('tag');
    // An output file names its run too; an index job's output ('.assay') is the index's manifest.
    const shard = v.manifest.outputs[0]!.path;
    expect((await h.client.invoke('runs.manifest', { path: `output/s/${shard}` })).folder).toBe('output/s');
    expect((await h.client.invoke('runs.manifest', { path: '.assay' })).manifest.stage).toBe('index');
  });

  it('refuses paths outside the workspace and names what is missing', async () => {
    expect(await failure(h.client.invoke('runs.manifest', { path: '../x' }))).toMatchObject({ code: 'FORBIDDEN', field: 'path' });
    const none = await failure(h.client.invoke('runs.manifest', { path: 'recipes' }));
    expect(none).toMatchObject({ code: 'NOT_FOUND', field: 'path' });
    expect(none.message).toMatch(/no run manifest in this folder/);
    expect(none.message).not.toContain(dir);
    expect(await failure(h.client.invoke('runs.locate', { path: 'output/s', query: { textHash: 'abc' } }))).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('searches the run’s ledger by id, text hash and substring, with the fate the preview names', async () => {
    const text = (await h.client.invoke('recipe.read', { path: 'recipes/run.yaml' })).text;
    const page = await h.client.invoke('documents.page', { offset: 0, limit: 60, recipeText: text });
    const written = new Set(readJsonlFile(join(dir, 'output/s', (await h.client.invoke('runs.manifest', { path: 'output/s' })).manifest.outputs[0]!.path)).map((d) => String(d.id)));
    for (const row of page.rows.slice(0, 12)) {
      const r = await h.client.invoke('runs.locate', { path: 'output/s', query: { id: row.id } });
      expect(r.ledgers).toEqual(['output/s/.assay/ledger.sqlite']);
      expect(r.matches).toHaveLength(1);
      const m = r.matches[0]!;
      expect(m.fate.kind).toBe(row.fate === 'kept' ? 'kept' : 'excluded');
      expect(m.input).toEqual({ file: row.file, line: row.line });
      if (m.fate.kind === 'kept') {
        expect(written.has(row.id)).toBe(true);
        expect(m.shard?.file.startsWith('output/s/')).toBe(true);
      } else expect(m.fate).toMatchObject({ exclude: 0, rule: expect.stringContaining(LEN) as string });
      const byHash = await h.client.invoke('runs.locate', { path: 'output/s', query: { textHash: m.sha256 } });
      expect(byHash.matches.map((x) => x.id)).toContain(row.id);
    }
    const some = await h.client.invoke('runs.locate', { path: 'output/s', query: { contains: 'river' }, limit: 3 });
    expect(some.matches).toHaveLength(3);
    expect(some.truncated).toBe(true);
    const none = await h.client.invoke('runs.locate', { path: 'output/s', query: { id: 'no-such-id' } });
    expect(none).toEqual({ ledgers: ['output/s/.assay/ledger.sqlite'], matches: [], truncated: false });
    // A tagger's folder holds no ledger: nothing searched, and the page says so.
    expect((await h.client.invoke('runs.locate', { path: 'attributes/lengths', query: { id: 'x' } })).ledgers).toEqual([]);
  });

  it('reads no text outside the workspace: a run over linked-in documents is searched by id, not by substring', async () => {
    const out = tempDir('assay-run-page-out-');
    try {
      cpSync(join(dir, 'documents'), join(out.dir, 'documents'), { recursive: true });
      cpSync(join(dir, 'attributes'), join(out.dir, 'attributes'), { recursive: true });
      symlinkSync(out.dir, join(dir, 'ext'));
      const recipe = RECIPE.replace('documents/*.jsonl.gz', 'ext/documents/*.jsonl.gz').replace('output/s', 'output/ext');
      await runMix(parseMixerConfig(recipe, 'ext.yaml'), { cwd: dir, processes: 1 });
      const e = await failure(h.client.invoke('runs.locate', { path: 'output/ext', query: { contains: 'river' } }));
      expect(e).toMatchObject({ code: 'FORBIDDEN', field: 'query' });
      expect(e.message).toMatch(/outside the workspace; search by id, url or text hash instead/);
      expect((await h.client.invoke('runs.locate', { path: 'output/ext', query: { id: 'f0-d1' } })).matches).toHaveLength(1);
    } finally {
      out.cleanup();
    }
  });
});
