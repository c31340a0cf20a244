// Issue 11 in the host: configs by schema, lint of paths outside the workspace, file watch, templates, export and search.
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../engine/index/index.js';
import { runTag } from '../engine/tag/runtime.js';
import { CONFORMANCE, scratchDir } from '../engine/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { failure, makeWorkspace, memoryHost, type MemoryHost } from './testing.js';
import { parseCsv } from '../../shared/csv-read.js';

let open: MemoryHost | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});
const start = (dir: string): MemoryHost => (open = memoryHost(dir, openPreviewEngine));


async function indexed(): Promise<string> {
  const dir = makeWorkspace(scratchDir(), { files: 2, docs: 30 });
  await runTag({ documents: [join(dir, 'documents/*.jsonl.gz')], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths' });
  await buildIndex(dir);
  return dir;
}

describe('workspace.info configs', () => {
  it('lists every config with the job kinds its schema accepts, wherever it sits, and nothing else', async () => {
    const dir = makeWorkspace(scratchDir());
    mkdirSync(join(dir, 'jobs/deep'), { recursive: true });
    writeFileSync(join(dir, 'jobs/tokens.yaml'), 'documents: [documents/*.jsonl.gz]\ndestination: tokens\ntokenizer: {name_or_path: gpt2, eos_token_id: 50256}\n');
    writeFileSync(join(dir, 'jobs/deep/dedupe.yml'), 'documents: [documents/*.jsonl.gz]\ndedupe: {name: d, paragraphs: {attribute_name: dup}}\nbloom_filter: {file: b.bloom, read_only: false, estimated_doc_count: 10, desired_false_positive_rate: 0.01}\n');
    writeFileSync(join(dir, 'minhash.json'), JSON.stringify({ documents: ['documents/*.jsonl.gz'], name: 'mh' }));
    writeFileSync(join(dir, 'preset.yaml'), readFileSync(join(dir, 'recipes/short.yaml'), 'utf8') + 'assay:\n  tag:\n    - experiment: lengths\n      taggers: [whitespace_tokenizer_v1]\n');
    // Dolma's mixer fixture folder: its configs are recipes, its cases file is not a config.
    cpSync(join(CONFORMANCE, 'dolma/mixer/configs'), join(dir, 'mixer/configs'), { recursive: true });
    cpSync(join(CONFORMANCE, 'dolma/mixer/cases'), join(dir, 'mixer/cases'), { recursive: true });
    writeFileSync(join(dir, 'notes.yaml'), 'just: a mapping\n');
    writeFileSync(join(dir, 'broken.yaml'), 'streams: [\n');
    mkdirSync(join(dir, 'documents/configs'), { recursive: true });
    writeFileSync(join(dir, 'documents/configs/hidden.yaml'), readFileSync(join(dir, 'recipes/short.yaml')));
    const { client } = start(dir);
    const info = await client.invoke('workspace.info', {});
    const kinds = Object.fromEntries(info.configs.map((c) => [c.path, c.kinds]));
    expect(kinds).toMatchObject({
      'configs/tag.yaml': ['tag'],
      'jobs/tokens.yaml': ['tokens'],
      'jobs/deep/dedupe.yml': ['dedupe'],
      'minhash.json': ['minhash'],
      'preset.yaml': ['mix', 'tag'],
      'recipes/short.yaml': ['mix'],
      'mixer/configs/mixer.json': ['mix'],
      'mixer/configs/email-spans-jq.yaml': ['mix'],
    });
    expect(Object.keys(kinds).filter((p) => p.startsWith('mixer/'))).toHaveLength(5);
    for (const not of ['mixer/cases/inline-cases.json', 'notes.yaml', 'broken.yaml', 'documents/configs/hidden.yaml']) expect(kinds[not], not).toBeUndefined();
    // A recipe being written (it does not parse yet) can still be opened, never run.
    expect(info.recipes).toEqual(['broken.yaml', ...info.configs.filter((c) => c.kinds.includes('mix')).map((c) => c.path)].sort());
    expect(info.recipes).not.toContain('mixer/cases/inline-cases.json');
  });

  it('stays fast on a big workspace: data-like files are not parsed, unchanged files are not re-read', async () => {
    const dir = makeWorkspace(scratchDir());
    mkdirSync(join(dir, 'meta'));
    for (let i = 0; i < 2500; i++) writeFileSync(join(dir, 'meta', `m${i}.json`), JSON.stringify({ id: i, stats: { words: i } }));
    mkdirSync(join(dir, 'shards'));
    for (let i = 0; i < 2000; i++) writeFileSync(join(dir, 'shards', `s${i}.jsonl.gz`), '');
    const { client } = start(dir);
    let t = performance.now();
    const info = await client.invoke('workspace.info', {});
    const first = performance.now() - t;
    expect(info.configs.map((c) => c.path)).toEqual(['configs/tag.yaml', 'recipes/short.yaml']);
    // Generous for a loaded 2-core machine: the point is no per-file schema parsing (that took ≈ 10 s here).
    expect(first).toBeLessThan(4000);
    t = performance.now();
    await client.invoke('workspace.info', {});
    expect(performance.now() - t).toBeLessThan(first);
  });

  it('does not follow a symbolic link out of the workspace (issue 12.7), follows one that stays inside', async () => {
    const outside = scratchDir();
    writeFileSync(join(outside, 'stolen.yaml'), 'documents: [x]\ntaggers: [char_length_v1]\n');
    const dir = makeWorkspace(scratchDir());
    symlinkSync(outside, join(dir, 'elsewhere'));
    symlinkSync(join(outside, 'stolen.yaml'), join(dir, 'link.yaml'));
    symlinkSync(join(dir, 'configs'), join(dir, 'also-configs'));
    symlinkSync(dir, join(dir, 'configs/loop'));
    const { client } = start(dir);
    const paths = (await client.invoke('workspace.info', {})).configs.map((c) => c.path);
    expect(paths).toContain('also-configs/tag.yaml');
    expect(paths.some((p) => p.includes('stolen') || p.startsWith('elsewhere') || p === 'link.yaml')).toBe(false);
  });
});

describe('preview.lint: outputs outside the workspace', () => {
  it('flags each output or work path that resolves outside, with its line and columns, without an index too', async () => {
    const dir = makeWorkspace(scratchDir());
    const text = `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    output: {path: ../elsewhere/out}\n  - name: t\n    documents: [documents/*.jsonl.gz]\n    output:\n      path: output/t\nwork_dir:\n  input: /tmp/work-in\n  output: work/out\n`;
    const { client } = start(dir);
    const issues = (await client.invoke('preview.lint', { recipeText: text })).filter((i) => i.code === 'outside-workspace');
    expect(issues).toHaveLength(2);
    expect(issues[0]).toMatchObject({ severity: 'error', line: 4, column: 20, endColumn: 36 });
    expect(text.split('\n')[3]?.slice(19, 35)).toBe('../elsewhere/out');
    expect(issues[0]?.message).toMatch(/outside the workspace/);
    expect(issues[1]).toMatchObject({ line: 10, column: 10, endColumn: 22 });
    // Through a symbolic link too.
    symlinkSync(scratchDir(), join(dir, 'escape'));
    const linked = await client.invoke('preview.lint', { recipeText: text.replace('output/t', 'escape/t') });
    expect(linked.filter((i) => i.code === 'outside-workspace').map((i) => i.line)).toEqual([4, 8, 10]);
  });

  it('adds them to the index lint when there is an index', async () => {
    const dir = await indexed();
    const { client } = start(dir);
    const text = readFileSync(join(dir, 'recipes/short.yaml'), 'utf8').replace('output/s', '/var/tmp/out');
    const issues = await client.invoke('preview.lint', { recipeText: text });
    expect(issues.map((i) => i.code)).toContain('outside-workspace');
  });
});

describe('recipe.watch', () => {
  it('emits file.changed within a second for an edit, an atomic rename-replace and a delete; unwatch stops it', async () => {
    const dir = makeWorkspace(scratchDir());
    const h = start(dir);
    const file = join(dir, 'recipes/short.yaml');
    expect(await h.client.invoke('recipe.watch', { path: 'recipes/short.yaml' })).toEqual({ path: 'recipes/short.yaml' });
    const within = async (what: () => void, test: (p: { path: string; exists: boolean }) => boolean): Promise<number> => {
      const before = h.events.length;
      const t = performance.now();
      what();
      await h.next('file.changed', (p) => h.events.length > before && test(p), 1500);
      const ms = performance.now() - t;
      expect(ms).toBeLessThan(1000);
      return ms;
    };
    await within(() => writeFileSync(file, 'streams: []\n# edited from a shell\n'), (p) => p.path === 'recipes/short.yaml' && p.exists);
    await within(() => {
      writeFileSync(`${file}.swp`, 'streams: []\n# saved by rename\n');
      renameSync(`${file}.swp`, file);
    }, (p) => p.exists);
    await within(() => rmSync(file), (p) => !p.exists);
    await within(() => writeFileSync(file, 'back\n'), (p) => p.exists);
    await h.client.invoke('recipe.unwatch', { path: 'recipes/short.yaml' });
    const n = h.events.filter((e) => e.event === 'file.changed').length;
    writeFileSync(file, 'after unwatch\n');
    await new Promise((r) => setTimeout(r, 900));
    expect(h.events.filter((e) => e.event === 'file.changed').length).toBe(n);
  });

  it('is confined to the workspace and bounded', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    expect((await failure(client.invoke('recipe.watch', { path: '../x.yaml' }))).code).toBe('FORBIDDEN');
    for (let i = 0; i < 64; i++) await client.invoke('recipe.watch', { path: `f${i}.yaml` });
    expect((await failure(client.invoke('recipe.watch', { path: 'one-more.yaml' }))).message).toMatch(/already watching 64 files/);
  });
});

describe('templates', () => {
  it('lists one starter per job kind plus the presets, and renders them for this workspace', async () => {
    const dir = await indexed();
    const { client } = start(dir);
    const list = await client.invoke('templates.list', {});
    expect(new Set(list.map((t) => t.kind))).toEqual(new Set(['mix', 'tag', 'dedupe', 'minhash', 'tokens', 'decon']));
    const fw = await client.invoke('templates.render', { id: 'fineweb' });
    expect(fw.suggestedPath).toBe('configs/fineweb.yaml');
    expect(fw.text).toContain('- documents/*.jsonl.gz');
    const tag = await client.invoke('templates.render', { id: 'tag' });
    expect(tag.suggestedPath).toBe('configs/tag-2.yaml');
    const starter = await client.invoke('templates.render', { id: 'starter' });
    expect(starter.text).toMatch(/lengths__whitespace_tokenizer_v1__length above its 99th percentile/);
    for (const t of list) {
      const r = await client.invoke('templates.render', { id: t.id });
      expect(await client.invoke('jobs.check', { kind: t.kind, configText: r.text }), t.id).toEqual({ ok: true });
    }
    expect((await failure(client.invoke('templates.render', { id: 'nope' }))).code).toBe('NOT_FOUND');
  });
});

describe('documents.export', () => {
  it('writes every selected row (not a page) as RFC 4180 CSV or JSONL, with fates, reasons and columns, atomically', async () => {
    const dir = await indexed();
    const { client } = start(dir);
    const recipeText = readFileSync(join(dir, 'recipes/short.yaml'), 'utf8');
    const query = { recipeText, fate: 'dropped' as const, columns: ['lengths__whitespace_tokenizer_v1__length'] };
    const page = await client.invoke('documents.page', { ...query, offset: 0, limit: 1000 });
    expect(page.total).toBeGreaterThan(3);
    const csv = await client.invoke('documents.export', { query, format: 'csv', path: 'exports/dropped.csv' });
    const text = readFileSync(join(dir, 'exports/dropped.csv'), 'utf8');
    expect(csv).toEqual({ path: 'exports/dropped.csv', rows: page.total, bytes: Buffer.byteLength(text) });
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['id', 'source', 'file', 'line', 'fate', 'dropped_by', 'reason', 'lengths__whitespace_tokenizer_v1__length']);
    expect(rows.slice(1).map((r) => r[0])).toEqual(page.rows.map((r) => r.id));
    expect(rows[1]?.[4]).toBe('dropped');
    expect(rows[1]?.[6]).toBe(page.rows[0]?.reason);
    expect(rows[1]?.[7]).toBe(String(page.rows[0]?.values['lengths__whitespace_tokenizer_v1__length']));
    const jl = await client.invoke('documents.export', { query, format: 'jsonl', path: 'exports/dropped.jsonl' });
    const lines = readFileSync(join(dir, 'exports/dropped.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(jl.rows).toBe(page.total);
    expect(lines[0]).toMatchObject({ id: page.rows[0]?.id, fate: 'dropped', droppedBy: 0, reason: page.rows[0]?.reason, values: page.rows[0]?.values });
    expect(readFileSync(join(dir, 'exports/dropped.csv'), 'utf8')).toBe(text);
    for (const bad of ['../out.csv', 'documents/x.csv', '.assay/x.csv', 'attributes/x.csv']) expect((await failure(client.invoke('documents.export', { query, format: 'csv', path: bad }))).code, bad).toBe('FORBIDDEN');
  });

  it('quotes fields with commas, quotes and newlines (RFC 4180), and combines with search', async () => {
    const dir = scratchDir();
    const ids = ['plain', 'with,comma', 'with "quote"', 'with\nnewline', 'with\r\ncrlf'];
    const { writeJsonl } = await import('../engine/testing.js');
    writeJsonl(join(dir, 'documents/a.jsonl'), ids.map((id, i) => ({ id, text: i % 2 ? 'needle in hay' : 'hay only', source: 'src, "quoted"' })));
    await buildIndex(dir);
    const { client } = start(dir);
    await client.invoke('documents.export', { query: {}, format: 'csv', path: 'all.csv' });
    const rows = parseCsv(readFileSync(join(dir, 'all.csv'), 'utf8'));
    expect(rows.slice(1).map((r) => r[0])).toEqual(ids);
    expect(rows.slice(1).every((r) => r[1] === 'src, "quoted"' && r.length === 4)).toBe(true);
    const found = await client.invoke('documents.export', { query: { search: 'needle' }, format: 'jsonl', path: 'needles.jsonl' });
    expect(found.rows).toBe(2);
    const detail = await client.invoke('documents.get', { id: 'with,comma', search: 'needle' });
    expect(detail.matches).toEqual([{ start: 0, end: 6 }]);
  });
});

describe('search through the app', () => {
  it("the index job builds the search table too (with progress), and documents.page answers searches combined with fates", { timeout: 120_000 }, async () => {
    const dir = makeWorkspace(scratchDir(), { files: 2, docs: 30 });
    const h = start(dir);
    const job = await h.client.invoke('jobs.start', { kind: 'index' });
    const done = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(done.error).toBeUndefined();
    expect(done.summary).toMatch(/; search: 60 texts from 2 file\(s\)/);
    const all = await h.client.invoke('documents.page', { offset: 0, limit: 100 });
    const withRiver = all.rows.filter((r) => /\briver\b/.test(r.snippet));
    const found = await h.client.invoke('documents.page', { offset: 0, limit: 100, search: 'river' });
    expect(found.total).toBeGreaterThan(0);
    expect(found.rows.map((r) => r.id)).toEqual(expect.arrayContaining(withRiver.map((r) => r.id)));
    const web = await h.client.invoke('documents.page', { offset: 0, limit: 100, search: 'river', source: 'web' });
    expect(web.rows.every((r) => r.source === 'web')).toBe(true);
    expect(web.total).toBeLessThan(found.total);
  });
});
