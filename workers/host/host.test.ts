// The host contract over the in-memory transport: round trips, validation (BAD_REQUEST), confinement (FORBIDDEN), jobs and history.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/contract/index.js';
import { buildIndex } from '../engine/index/index.js';
import { runTag } from '../engine/tag/runtime.js';
import { scratchDir } from '../engine/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { failure, makeWorkspace, memoryHost, type MemoryHost } from './testing.js';

let open: MemoryHost | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function start(dir: string, opts: { restartReason?: string } = {}): MemoryHost {
  open = memoryHost(dir, openPreviewEngine, opts);
  return open;
}


describe('host methods', () => {
  it('answers workspace.info before an index exists, and says how to build one for preview calls', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    const info = await client.invoke('workspace.info', {});
    expect(info.recipes).toEqual(['recipes/short.yaml']);
    expect(info.index.built).toBe(false);
    const e = await failure(client.invoke('preview.run', { recipeText: 'streams: []' }));
    expect(e.code).toBe('NOT_FOUND');
    expect(e.message).toMatch(/index job/);
  });

  it('reads and atomically writes recipes inside the workspace', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    const r = await client.invoke('recipe.read', { path: 'recipes/short.yaml' });
    expect(r.text).toContain('streams:');
    const text = r.text.replace('< 40', '< 45');
    const w = await client.invoke('recipe.write', { path: 'recipes/new/tuned.yaml', text });
    expect(w).toEqual({ path: 'recipes/new/tuned.yaml', bytes: Buffer.byteLength(text) });
    expect(readFileSync(join(dir, 'recipes/new/tuned.yaml'), 'utf8')).toBe(text);
    expect(readdirSync(join(dir, 'recipes/new'))).toEqual(['tuned.yaml']);
    expect((await failure(client.invoke('recipe.read', { path: 'recipes/missing.yaml' }))).code).toBe('NOT_FOUND');
  });

  it('writes a recipe only over the text the editor read when it says so (CONFLICT otherwise, the file untouched)', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    const file = join(dir, 'recipes/short.yaml');
    const read = (await client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text;
    await client.invoke('recipe.write', { path: 'recipes/short.yaml', text: 'mine: 1\n', expect: read });
    expect(readFileSync(file, 'utf8')).toBe('mine: 1\n');
    writeFileSync(file, 'theirs: 1\n');
    const e = await failure(client.invoke('recipe.write', { path: 'recipes/short.yaml', text: 'mine: 2\n', expect: 'mine: 1\n' }));
    expect(e).toMatchObject({ code: 'CONFLICT', field: 'path' });
    expect(e.message).toContain("'recipes/short.yaml' changed on disk since the editor read it");
    expect(readFileSync(file, 'utf8')).toBe('theirs: 1\n');
    // Without `expect` the write goes through; a file deleted meanwhile is written again.
    await client.invoke('recipe.write', { path: 'recipes/short.yaml', text: 'mine: 2\n' });
    expect(readFileSync(file, 'utf8')).toBe('mine: 2\n');
    rmSync(file);
    await client.invoke('recipe.write', { path: 'recipes/short.yaml', text: 'mine: 3\n', expect: 'mine: 2\n' });
    expect(readFileSync(file, 'utf8')).toBe('mine: 3\n');
    // `create`: a new name only.
    const taken = await failure(client.invoke('recipe.write', { path: 'recipes/short.yaml', text: 'new: 1\n', create: true }));
    expect(taken).toMatchObject({ code: 'CONFLICT', message: "'recipes/short.yaml' already exists" });
    expect(readFileSync(file, 'utf8')).toBe('mine: 3\n');
    await client.invoke('recipe.write', { path: 'recipes/new.yaml', text: 'new: 1\n', create: true });
    expect(readFileSync(join(dir, 'recipes/new.yaml'), 'utf8')).toBe('new: 1\n');
  });

  it('refuses paths that leave the workspace, lexically or through a symlink (FORBIDDEN)', async () => {
    const outside = scratchDir();
    writeFileSync(join(outside, 'secret.yaml'), 'streams: []\n');
    const dir = makeWorkspace(scratchDir());
    symlinkSync(outside, join(dir, 'link'));
    const { client } = start(dir);
    for (const path of ['../secret.yaml', '/etc/passwd', 'recipes/../../x.yaml', 'link/secret.yaml']) {
      expect((await failure(client.invoke('recipe.read', { path }))).code, path).toBe('FORBIDDEN');
    }
    expect((await failure(client.invoke('recipe.write', { path: 'link/new.yaml', text: 'x: 1' }))).code).toBe('FORBIDDEN');
    expect(existsSync(join(outside, 'new.yaml'))).toBe(false);
    // Inside the workspace, only recipe files, and never the .assay/ state.
    expect((await failure(client.invoke('recipe.write', { path: 'documents/part-0.jsonl.gz', text: 'x' }))).code).toBe('FORBIDDEN');
    expect((await failure(client.invoke('recipe.write', { path: '.assay/runs.yaml', text: 'x' }))).code).toBe('FORBIDDEN');
    expect((await failure(client.invoke('jobs.start', { kind: 'mix', configPath: '../secret.yaml' }))).code).toBe('FORBIDDEN');
  });

  it('refuses job configs whose own paths leave the workspace, or that would run code', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    const tag = (extra: string): Promise<unknown> => client.invoke('jobs.start', { kind: 'tag', configText: `taggers: [char_length_v1]\n${extra}` });
    const escape = await failure(tag('documents: [../elsewhere/documents/*.jsonl.gz]\n'));
    expect(escape).toMatchObject({ code: 'FORBIDDEN', field: 'documents' });
    expect((await failure(tag('documents: [documents/*.jsonl.gz]\ntagger_modules: [evil.js]\n'))).code).toBe('FORBIDDEN');
    const mixOut = await failure(client.invoke('jobs.start', { kind: 'mix', configText: 'streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    output: {path: /tmp/stolen}\n    filter: {exclude: ["$.x"]}\n' }));
    expect(mixOut).toMatchObject({ code: 'FORBIDDEN', field: 'streams[0].output.path' });
    const bad = await failure(client.invoke('jobs.start', { kind: 'dedupe', configText: 'documents: [documents/*.jsonl.gz]\nbloom_filter: {file: b.bin, read_only: false\n' }));
    expect(bad.code).toBe('CONFIG');
    expect(bad.line).toBeGreaterThan(0);
    // Refused configs leave nothing behind.
    expect(existsSync(join(dir, '.assay/runs'))).toBe(false);
  });

  it('answers requests that fail their schema with BAD_REQUEST naming the field', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    expect(await client.call('recipe.read', {})).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', field: 'path' } });
    expect(await client.call('recipe.read', { path: 'a.yaml', extra: 1 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await client.call('attributes.histogram', { key: 'k', bins: 0 })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', field: 'bins' } });
    expect(await client.call('jobs.start', { kind: 'mix' })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect(await client.call('no.such.method', {})).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: "unknown method 'no.such.method'" } });
    expect(await client.call('toString', {})).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
  });
});

describe('index-backed methods', () => {
  it('round-trips preview, samples, explain, lint, histogram and document pages through the index engine', async () => {
    const dir = makeWorkspace(scratchDir());
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
    await buildIndex(dir);
    const { client } = start(dir);
    const recipeText = (await client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text;
    const info = await client.invoke('workspace.info', {});
    expect(info.index).toMatchObject({ built: true, docs: 40 });
    expect(info.attributes.map((a) => a.key)).toContain('lengths__whitespace_tokenizer_v1__length');
    expect(info.sources.map((s) => s.source)).toEqual(['web']);
    const preview = await client.invoke('preview.run', { recipeText, ids: true });
    expect(preview.total.docs).toBe(40);
    expect(preview.rules).toHaveLength(1);
    const dropped = preview.rules[0]!.alone.docs;
    expect(preview.total.kept.docs).toBe(40 - dropped);
    expect(preview.keptIds).toHaveLength(40 - dropped);
    const sample = await client.invoke('preview.samples', { recipeText, rule: 0, bucket: 'alone', offset: 0, limit: 5 });
    expect(sample.total).toBe(dropped);
    const id = sample.ids[0] ?? preview.keptIds![0]!;
    const why = await client.invoke('preview.explain', { recipeText, id });
    expect(why.id).toBe(id);
    expect(why.fate).toBe(sample.ids.length > 0 ? 'dropped' : 'kept');
    expect(Array.isArray(await client.invoke('preview.lint', { recipeText }))).toBe(true);
    const hist = await client.invoke('attributes.histogram', { key: 'lengths__whitespace_tokenizer_v1__length', bins: 10 });
    expect(hist.counts.reduce((a, b) => a + b, 0)).toBe(hist.present);
    expect(hist.present).toBe(40);
    const page = await client.invoke('documents.page', { offset: 0, limit: 10, recipeText });
    expect(page.total).toBe(40);
    expect(page.rows).toHaveLength(10);
    const doc = await client.invoke('documents.get', { id: page.rows[0]!.id });
    expect(doc.text.length).toBeGreaterThan(0);
    const broken = await failure(client.invoke('preview.run', { recipeText: 'streams:\n  - name: s\n    documents: [x\n' }));
    expect(broken.code).toBe('CONFIG');
    expect(broken.line).toBeGreaterThan(0);
  });
});

describe('jobs', () => {
  it('runs a tag job: running → progress → index.updated → done, with outputs, then serves the index; history persists', async () => {
    const dir = makeWorkspace(scratchDir(), { files: 2 });
    const h = start(dir);
    const job = await h.client.invoke('jobs.start', { kind: 'tag', configPath: 'configs/tag.yaml' });
    expect(job).toMatchObject({ kind: 'tag', state: 'running', config: 'configs/tag.yaml' });
    const done = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(done.error).toBeUndefined();
    expect(done).toMatchObject({ state: 'done', outputs: ['attributes/lengths'] });
    expect(done.summary).toMatch(/tagged 2 file\(s\), 80 docs/);
    const progress = h.events.filter((e) => e.event === 'job.progress').map((e) => e.payload as { done: number; total: number });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)?.done).toBe(progress.at(-1)?.total);
    expect(h.events.some((e) => e.event === 'index.updated' && (e.payload as { docs: number }).docs === 80)).toBe(true);
    expect(existsSync(join(dir, 'attributes/lengths/part-1.jsonl.gz'))).toBe(true);
    const info = await h.client.invoke('workspace.info', {});
    expect(info.index).toMatchObject({ built: true, docs: 80 });
    expect((await h.client.invoke('jobs.list', {}))[0]).toMatchObject({ jobId: job.jobId, state: 'done' });
    await h.close();
    open = undefined;
    const again = start(dir);
    expect((await again.client.invoke('jobs.list', {})).map((j) => [j.jobId, j.state])).toEqual([[job.jobId, 'done']]);
  });

  it('runs a tokens job with the built-in GPT-2 tokenizer, and refuses a destination outside', async () => {
    const dir = makeWorkspace(scratchDir());
    const h = start(dir);
    const cfg = (dest: string): string => `documents: [documents/*.jsonl.gz]\ndestination: ${dest}\ntokenizer: {name_or_path: gpt2, eos_token_id: 50256}\ndtype: uint16\n`;
    expect((await failure(h.client.invoke('jobs.start', { kind: 'tokens', configText: cfg('../tokens') }))).code).toBe('FORBIDDEN');
    const job = await h.client.invoke('jobs.start', { kind: 'tokens', configText: cfg('tokens/gpt2') });
    const end = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(end).toMatchObject({ state: 'done', outputs: ['tokens/gpt2'] });
    expect(end.summary).toMatch(/^tokenized 40 docs → [\d,]+ uint16 tokens/);
    expect(readdirSync(join(dir, 'tokens/gpt2')).some((f) => f.endsWith('.npy'))).toBe(true);
  });

  it('two tag jobs at once: both finish and the index holds both attribute sets for every document', async () => {
    const dir = makeWorkspace(scratchDir(), { files: 4, docs: 300, words: 200 });
    const h = start(dir);
    const tag = (taggers: string, experiment: string): Promise<JobInfo> => h.client.invoke('jobs.start', { kind: 'tag', configText: `documents: [documents/*.jsonl.gz]\ntaggers: [${taggers}]\nexperiment: ${experiment}\n` });
    const [a, b] = [await tag('gopher_v1', 'ga'), await tag('c4_v2', 'cb')];
    const ends = [a, b].map((j) => h.next('job.state', (x) => x.jobId === j.jobId && x.state !== 'running', 60_000));
    expect((await Promise.all(ends)).map((e) => e.state)).toEqual(['done', 'done']);
    // Each job re-indexes when it ends; one at a time (the index lock), so the later one sees both sets complete.
    for (const key of ['ga__gopher_v1__word_count', 'cb__c4_v2__lines_with_no_ending_punctuation']) {
      expect((await h.client.invoke('attributes.histogram', { key, bins: 5 })).present, key).toBe(1200);
    }
  });

  it('a tokens job into a destination a run outside the app is writing fails at once, naming that run', async () => {
    const dir = makeWorkspace(scratchDir());
    const h = start(dir);
    // A CLI run of another process (pid 1 always runs) holds the destination's lock.
    mkdirSync(join(dir, 'tokens/cli/.assay'), { recursive: true });
    writeFileSync(join(dir, 'tokens/cli/.assay/write.lock'), `${hostname()}\n1\ntoken\nassay tokens\n`);
    const job = await h.client.invoke('jobs.start', { kind: 'tokens', configText: 'documents: [documents/*.jsonl.gz]\ndestination: tokens/cli\ntokenizer: {name_or_path: gpt2, eos_token_id: 50256}\ndtype: uint16\n' });
    const end = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(end.state).toBe('failed');
    expect(end.error).toContain(`another run is writing here (assay tokens, process 1 on ${hostname()}); wait for it to finish, or write this run elsewhere`);
    expect(readdirSync(join(dir, 'tokens/cli'))).toEqual(['.assay']);
  });

  it('refuses a job that would write where a running job writes (same place, inside it, or around it) until that job ends', async () => {
    const dir = makeWorkspace(scratchDir());
    const h = start(dir);
    const tokens = (dest: string): { kind: 'tokens'; configText: string } => ({ kind: 'tokens', configText: `documents: [documents/*.jsonl.gz]\ndestination: ${dest}\ntokenizer: {name_or_path: gpt2, eos_token_id: 50256}\ndtype: uint16\n` });
    const a = await h.client.invoke('jobs.start', tokens('tokens/a'));
    for (const dest of ['tokens/a', 'tokens/a/inner', 'tokens']) {
      const e = await failure(h.client.invoke('jobs.start', tokens(dest)));
      expect(e, dest).toMatchObject({ code: 'BAD_REQUEST', field: 'destination' });
      expect(e.message).toContain(`is being written by job ${a.jobId} (tokens); wait for it to finish or cancel it`);
      expect(await h.client.invoke('jobs.check', tokens(dest))).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', field: 'destination' } });
    }
    // A tag job with the same experiment as a running one, too; another place runs beside it.
    const tag = (exp: string): { kind: 'tag'; configText: string } => ({ kind: 'tag', configText: `documents: [documents/*.jsonl.gz]\ntaggers: [char_length_v1]\nexperiment: ${exp}\n` });
    const t = await h.client.invoke('jobs.start', tag('e1'));
    expect((await failure(h.client.invoke('jobs.start', tag('e1')))).message).toMatch(new RegExp(`^experiment: 'attributes/e1/[^']+' is being written by job ${t.jobId} \\(tag\\)`));
    const b = await h.client.invoke('jobs.start', tokens('tokens/b'));
    const ended = (id: string): Promise<JobInfo> => h.next('job.state', (j) => j.jobId === id && j.state !== 'running', 60_000);
    expect((await Promise.all([a, t, b].map((j) => ended(j.jobId)))).map((j) => j.state)).toEqual(['done', 'done', 'done']);
    // Once it has ended, the same place is free.
    const again = await h.client.invoke('jobs.start', tokens('tokens/a'));
    expect((await ended(again.jobId)).state).toBe('done');
  });

  it('cancels a running job: state cancelled, no outputs published', async () => {
    const dir = makeWorkspace(scratchDir(), { files: 6, docs: 400, words: 400 });
    const h = start(dir);
    const job = await h.client.invoke('jobs.start', { kind: 'tag', configText: 'documents: [documents/*.jsonl.gz]\ntaggers: [gopher_v1]\nexperiment: g\n' });
    expect(job.config).toBe(`.assay/runs/${job.jobId}.yaml`);
    const cancelled = await h.client.invoke('jobs.cancel', { jobId: job.jobId });
    expect(cancelled.jobId).toBe(job.jobId);
    const end = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 30_000);
    expect(end.state).toBe('cancelled');
    // Ended through the engine's AbortSignal, not by a kill after the grace period.
    expect(end.error).toMatch(/cancel/i);
    expect(end.error).not.toMatch(/unexpectedly/);
    const outs = existsSync(join(dir, 'attributes/g')) ? readdirSync(join(dir, 'attributes/g')).filter((f) => f.endsWith('.gz')) : [];
    expect(outs).toEqual([]);
    expect((await failure(h.client.invoke('jobs.cancel', { jobId: 'nope' }))).code).toBe('NOT_FOUND');
  });

  it('records jobs a crashed host left running as failed, with the reason', async () => {
    const dir = makeWorkspace(scratchDir());
    mkdirSync(join(dir, '.assay'), { recursive: true });
    const orphan: JobInfo & { hostPid: number } = { jobId: 'mix-old', kind: 'mix', state: 'running', startedAt: '2026-01-01T00:00:00.000Z', outputs: [], hostPid: 2 ** 22 + 17 };
    writeFileSync(join(dir, '.assay/runs.jsonl'), JSON.stringify(orphan) + '\n{"torn line\n');
    const { client } = start(dir, { restartReason: 'the engine host process stopped while this job was running (killed by SIGKILL)' });
    const [job] = await client.invoke('jobs.list', {});
    expect(job).toMatchObject({ jobId: 'mix-old', state: 'failed', error: expect.stringContaining('SIGKILL') });
    expect(readFileSync(join(dir, '.assay/runs.jsonl'), 'utf8').trim().split('\n')).toHaveLength(3);
  });
});
