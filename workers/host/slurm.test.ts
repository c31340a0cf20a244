// Slurm jobs through the host contract: executor settings per workspace, refusals, a missing sbatch, and on a real single-node cluster tag → mix, decon, a WARC extraction, and cancel.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/contract/index.js';
import { startSlurm } from '../engine/executor/testing.js';
import { readJsonlFile, scratchDir, writeJsonl } from '../engine/testing.js';
import { httpBlock, perRecordGzip, warcRecord } from '../engine/warc/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { failure, makeWorkspace, memoryHost, type MemoryHost } from './testing.js';

let open: MemoryHost | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});
const start = (dir: string): MemoryHost => (open = memoryHost(dir, openPreviewEngine));
const ended = (h: MemoryHost, jobId: string, timeoutMs = 90_000): Promise<JobInfo> => h.next('job.state', (j) => j.jobId === jobId && j.state !== 'running', timeoutMs);

describe('Slurm jobs from the app', () => {
  it('remembers the executor per workspace in .assay/executor.json; a broken file reads as local', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    expect(await client.invoke('executor.get', {})).toEqual({ type: 'local', slurm: { cpus_per_task: 1, sbatch_args: [] } });
    const saved = await client.invoke('executor.set', { type: 'slurm', slurm: { tasks: 4, partition: 'cpu', mem: '4G', time: '1:00:00', logging_dir: 'runs/slurm' } });
    expect(saved).toEqual({ type: 'slurm', slurm: { tasks: 4, partition: 'cpu', mem: '4G', time: '1:00:00', logging_dir: 'runs/slurm', cpus_per_task: 1, sbatch_args: [] } });
    expect(JSON.parse(readFileSync(join(dir, '.assay/executor.json'), 'utf8'))).toEqual(saved);
    expect(await client.invoke('executor.get', {})).toEqual(saved);
    expect((await failure(client.invoke('executor.set', { type: 'slurm', slurm: { tasks: 0 } }))).code).toBe('BAD_REQUEST');
    writeFileSync(join(dir, '.assay/executor.json'), '{"type": "pbs"');
    expect((await client.invoke('executor.get', {})).type).toBe('local');
  });

  it('refuses kinds Slurm cannot split and logging dirs outside the workspace, before anything starts', async () => {
    const dir = makeWorkspace(scratchDir());
    const { client } = start(dir);
    const index = await client.invoke('jobs.check', { kind: 'index', executor: { type: 'slurm' } });
    expect(index).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', field: 'executor' } });
    expect(index.ok === false && index.error?.message).toMatch(/index runs locally only; Slurm runs tag, dedupe, minhash, mix, tokens/);
    const outside = await client.invoke('jobs.check', { kind: 'tag', configPath: 'configs/tag.yaml', executor: { type: 'slurm', logging_dir: '../elsewhere' } });
    expect(outside).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', field: 'executor.logging_dir' } });
    expect(await client.invoke('jobs.check', { kind: 'tag', configPath: 'configs/tag.yaml', executor: { type: 'slurm', tasks: 2 } })).toEqual({ ok: true });
  });

  it('a Slurm job where sbatch is not installed fails saying the Slurm client tools are needed', async () => {
    const dir = makeWorkspace(scratchDir());
    const h = start(dir);
    const path = process.env.PATH;
    // The job process gets the host's PATH when it starts: one without sbatch.
    process.env.PATH = scratchDir();
    let job: JobInfo;
    try {
      job = await h.client.invoke('jobs.start', { kind: 'tag', configPath: 'configs/tag.yaml', executor: { type: 'slurm', tasks: 1 } });
    } finally {
      process.env.PATH = path;
    }
    const end = await ended(h, job.jobId, 60_000);
    expect(end.state).toBe('failed');
    expect(end.error).toMatch(/sbatch is not installed or not on PATH \(the Slurm client tools are needed/);
  }, 70_000);
});

const BASE = '/tmp/assay-slurm-host';
let cluster: { conf: string; stop: () => void } | { skip: string } | null = null;

describe('on a real single-node Slurm', () => {
  beforeAll(() => {
    cluster = startSlurm(BASE, { ctld: 6857, slurmd: 6858, node: 'hostnode' });
    if ('skip' in cluster) process.stderr.write(`Slurm host tests skipped: ${cluster.skip}\n`);
    else process.env.SLURM_CONF = cluster.conf;
  }, 400_000);
  afterAll(() => {
    if (cluster && 'stop' in cluster) cluster.stop();
  });

  it('tags as a 2-task array (per-task states, tasks as progress, index refreshed), then mixes on it; the same mix again resumes with nothing to do', async (ctx) => {
    if (!cluster || 'skip' in cluster) return ctx.skip(cluster?.skip ?? 'no cluster');
    const dir = makeWorkspace(scratchDir(), { files: 2, docs: 20 });
    const h = start(dir);
    const tag = await h.client.invoke('jobs.start', { kind: 'tag', configPath: 'configs/tag.yaml', executor: { type: 'slurm', tasks: 2 } });
    const tagged = await ended(h, tag.jobId);
    expect(tagged.error).toBeUndefined();
    expect(tagged.state).toBe('done');
    expect(tagged.slurm?.tasks.map((t) => `${t.task}:${t.state}`)).toEqual(['0:done', '1:done', 'final:done']);
    expect(tagged.summary).toMatch(/^2 task\(s\) done on Slurm \(Slurm jobs \d+, \d+\)/);
    // Tasks done are the progress while the array runs (the index refresh after it reports its own).
    const progress = h.events.filter((e) => e.event === 'job.progress' && (e.payload as { jobId: string; unit: string }).jobId === tag.jobId).map((e) => e.payload as { unit: string; total: number });
    expect(progress.find((p) => p.unit === 'tasks')).toMatchObject({ total: 3 });
    const updates = h.events.filter((e) => e.event === 'job.tasks' && (e.payload as { jobId: string }).jobId === tag.jobId);
    expect(updates.length).toBeGreaterThan(0);
    expect(readdirSync(join(dir, 'attributes/lengths')).filter((f) => !f.startsWith('.')).sort()).toEqual(['part-0.jsonl.gz', 'part-1.jsonl.gz']);
    await h.next('index.updated');

    const mix = await h.client.invoke('jobs.start', { kind: 'mix', configPath: 'recipes/short.yaml', executor: { type: 'slurm', tasks: 2 } });
    const mixed = await ended(h, mix.jobId);
    expect(mixed.error).toBeUndefined();
    expect(mixed.outputs).toEqual(['output/s']);
    // As many array tasks as the planner made shards (at most 2), then the final step: all done.
    const total = mixed.slurm?.tasks.length ?? 0;
    expect(total).toBeGreaterThanOrEqual(2);
    expect(mixed.progress).toMatchObject({ done: total, total, unit: 'tasks' });
    expect(existsSync(join(dir, 'output/s/.assay/manifest.json'))).toBe(true);
    const loggingDir = mixed.slurm?.loggingDir ?? '';
    expect(loggingDir).toMatch(/^\.assay\/slurm\/mix-[0-9a-f]{12}$/);
    const again = await h.client.invoke('jobs.start', { kind: 'mix', configPath: 'recipes/short.yaml', executor: { type: 'slurm', tasks: 2 } });
    const resumed = await ended(h, again.jobId);
    expect(resumed.state).toBe('done');
    expect(resumed.slurm?.loggingDir).toBe(loggingDir);
    expect(h.events.some((e) => e.event === 'job.log' && /nothing to submit/.test((e.payload as { line: string }).line))).toBe(true);
  }, 180_000);

  it('decon runs as a 2-task array: the index built once while planning, each file tagged, the index refreshed', async (ctx) => {
    if (!cluster || 'skip' in cluster) return ctx.skip(cluster?.skip ?? 'no cluster');
    const dir = makeWorkspace(scratchDir(), { files: 2, docs: 20 });
    // One eval item quotes a document of the second file; the other is in no document.
    const words = readJsonlFile(join(dir, 'documents/part-1.jsonl.gz')).map((d) => String(d.text).split(' '));
    const at = words.findIndex((w) => w.length >= 20);
    const quoted = words[at]!.slice(0, 16).join(' ');
    writeJsonl(join(dir, 'evals/qa.jsonl'), [{ q: quoted }, { q: 'no document of this workspace holds these words in this order at all, anywhere' }]);
    writeFileSync(join(dir, 'configs/decon.yaml'), 'name: dc\ndocuments: [documents/*.jsonl.gz]\neval:\n  - {name: qa, path: evals/qa.jsonl, fields: [q]}\n');
    const h = start(dir);
    const job = await h.client.invoke('jobs.start', { kind: 'decon', configPath: 'configs/decon.yaml', executor: { type: 'slurm', tasks: 2 } });
    const end = await ended(h, job.jobId);
    expect(end.error, end.error).toBeUndefined();
    expect(end.slurm?.tasks.map((t) => `${t.task}:${t.state}`)).toEqual(['0:done', '1:done', 'final:done']);
    expect(existsSync(join(dir, 'configs/dc.decon.idx'))).toBe(true);
    const hits = (f: string): unknown[] => readJsonlFile(join(dir, 'attributes/dc', f)).map((r) => (r.attributes as Record<string, unknown>)['dc__decon__hits']);
    expect(hits('part-0.jsonl.gz').every((x) => JSON.stringify(x) === '[]')).toBe(true);
    expect(hits('part-1.jsonl.gz').flatMap((x, i) => (JSON.stringify(x) === '[]' ? [] : [[i, x]]))).toEqual([[at, ['qa:0']]]);
    await h.next('index.updated');
    expect((await h.client.invoke('decon.report', { name: 'dc' })).sets.map((s) => [s.set, s.hitItems, s.items])).toEqual([['qa', 1, 2]]);
  }, 180_000);

  it("the Sources dialog's WARC extraction on Slurm: the pages become documents of the workspace, indexed when it ends", async (ctx) => {
    if (!cluster || 'skip' in cluster) return ctx.skip(cluster?.skip ?? 'no cluster');
    const dir = makeWorkspace(scratchDir(), { files: 1, docs: 5 });
    const page = (title: string): string => `<html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${'The river runs past the old market where farmers sell bread every morning. '.repeat(4)}</p></main></body></html>`;
    mkdirSync(join(dir, 'raw'));
    writeFileSync(join(dir, 'raw/crawl.warc.gz'), perRecordGzip([
      warcRecord('response', 'https://example.org/a.html', httpBlock(200, { 'Content-Type': 'text/html' }, page('Alpha'))),
      warcRecord('response', 'https://example.org/b.html', httpBlock(200, { 'Content-Type': 'text/html' }, page('Beta'))),
    ]));
    const h = start(dir);
    // What the dialog sends (store/sources.ts warcConfigText), with the Runs tab's Slurm choice.
    const job = await h.client.invoke('jobs.start', { kind: 'warc', configText: JSON.stringify({ documents: ['raw/crawl.warc.gz'], destination: '.', source_name: 'crawl' }), executor: { type: 'slurm' } });
    const end = await ended(h, job.jobId);
    expect(end.error, end.error).toBeUndefined();
    expect(end.slurm?.tasks.map((t) => `${t.task}:${t.state}`)).toEqual(['0:done', 'final:done']);
    expect(end.outputs).toEqual(['documents']);
    await h.next('index.updated', (u) => u.docs === 7);
    const rows = (await h.client.invoke('documents.page', { offset: 0, limit: 20 })).rows;
    expect(rows.filter((r) => r.source === 'crawl')).toHaveLength(2);
  }, 180_000);

  it('cancel runs scancel: the job ends cancelled and its tasks read cancelled', async (ctx) => {
    if (!cluster || 'skip' in cluster) return ctx.skip(cluster?.skip ?? 'no cluster');
    const dir = makeWorkspace(scratchDir(), { files: 2, docs: 5 });
    const h = start(dir);
    // Each task waits first, so the cancel always lands while they are queued or running.
    const job = await h.client.invoke('jobs.start', { kind: 'tag', configPath: 'configs/tag.yaml', executor: { type: 'slurm', tasks: 2, env_command: 'sleep 60' } });
    await h.next('job.tasks', (t) => t.jobId === job.jobId, 30_000);
    await h.client.invoke('jobs.cancel', { jobId: job.jobId });
    const end = await ended(h, job.jobId, 60_000);
    expect(end.state).toBe('cancelled');
    expect(end.slurm?.tasks.every((t) => t.state === 'cancelled')).toBe(true);
    expect(h.events.some((e) => e.event === 'job.log' && /^cancelling: scancel \d+/.test((e.payload as { line: string }).line))).toBe(true);
  }, 120_000);
});
