// The preview worker thread: heavy calls run there, light ones answer at once, a newer preview cancels an older, a stuck worker is replaced.
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../engine/index/index.js';
import { runTag } from '../engine/tag/runtime.js';
import { scratchDir } from '../engine/testing.js';
import { HostClient } from './client.js';
import { createHost, type Host, type HostOptions } from './host.js';
import { failure, makeWorkspace } from './testing.js';
import { memoryPair } from './transport.js';

let open: { host: Host; client: HostClient } | undefined;
afterEach(async () => {
  await open?.host.close();
  await open?.client.close();
  open = undefined;
});

function start(workspace: string, extra: Partial<HostOptions> = {}, logs: string[] = []): { host: Host; client: HostClient } {
  const pair = memoryPair();
  const host = createHost({ workspace, endpoint: pair.host, log: (m) => logs.push(m), ...extra });
  open = { host, client: new HostClient(pair.client) };
  return open;
}


/** A recipe whose every rule needs the exact evaluator on every document: slow in proportion to `rules`, interruptible between chunks. */
function slowRecipe(rules: number, tag = ''): string {
  const lines = Array.from({ length: rules }, (_, i) => `        - "$[?(@.text ~= 'zq${i}${tag}')]"`);
  return `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    output: {path: output/s}\n    filter:\n      exclude:\n${lines.join('\n')}\n`;
}

async function indexed(opts: { files?: number; docs?: number } = {}): Promise<string> {
  const dir = makeWorkspace(scratchDir(), { words: 60, ...opts });
  await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
  await buildIndex(dir);
  return dir;
}

describe('preview worker', () => {
  it('previews a large index on a sample (figures with intervals) and gives exact figures when asked; documents stay whole', async () => {
    const dir = await indexed({ files: 4, docs: 100 });
    const { client } = start(dir, { env: { ...process.env, ASSAY_PREVIEW_SAMPLE_ABOVE: '300', ASSAY_PREVIEW_SAMPLE_DOCS: '150' } });
    const recipeText = (await client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text;
    const live = await client.invoke('preview.run', { recipeText });
    expect(live.exact).toBe(false);
    expect(live.sample).toMatchObject({ of: 400, level: 0.95 });
    expect(live.total.kept.ci?.docs[0]).toBeLessThanOrEqual(live.total.kept.docs);
    const exact = await client.invoke('preview.run', { recipeText, exact: true });
    expect(exact.exact).toBe(true);
    expect(exact.sample).toBeUndefined();
    const [lo, hi] = live.total.kept.ci!.docs;
    expect(exact.total.kept.docs).toBeGreaterThanOrEqual(lo - 60);
    expect(exact.total.kept.docs).toBeLessThanOrEqual(hi + 60);
    // The document table and the index's own figures are the whole index's.
    expect((await client.invoke('workspace.info', {})).index).toMatchObject({ docs: 400 });
    expect((await client.invoke('documents.page', { recipeText, offset: 0, limit: 5 })).total).toBe(400);
  });

  it('a small index, or ASSAY_PREVIEW_SAMPLE_ABOVE=off, previews every document', async () => {
    const dir = await indexed();
    for (const env of [{ ASSAY_PREVIEW_SAMPLE_ABOVE: '100000' }, { ASSAY_PREVIEW_SAMPLE_ABOVE: 'off' }]) {
      const { host, client } = start(dir, { env: { ...process.env, ...env } });
      const recipeText = (await client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text;
      expect((await client.invoke('preview.run', { recipeText })).exact).toBe(true);
      await host.close();
      await client.close();
      open = undefined;
    }
  });

  it('serves every index-backed method from the worker thread, with errors as precise as in-process', async () => {
    const dir = await indexed();
    const { client } = start(dir);
    const recipeText = (await client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text;
    const info = await client.invoke('workspace.info', {});
    expect(info.index).toMatchObject({ built: true, docs: 40, stale: false });
    expect(info.attributes.map((a) => a.key)).toContain('lengths__whitespace_tokenizer_v1__length');
    const preview = await client.invoke('preview.run', { recipeText, ids: true });
    expect(preview.total.docs).toBe(40);
    expect(preview.keptIds).toHaveLength(preview.total.kept.docs);
    const sample = await client.invoke('preview.samples', { recipeText, rule: 0, bucket: 'alone', offset: 0, limit: 5 });
    expect(sample.total).toBe(preview.rules[0]!.alone.docs);
    expect((await client.invoke('preview.explain', { recipeText, id: preview.keptIds![0]! })).fate).toBe('kept');
    expect(Array.isArray(await client.invoke('preview.lint', { recipeText }))).toBe(true);
    expect((await client.invoke('attributes.histogram', { key: 'lengths__whitespace_tokenizer_v1__length', bins: 5 })).present).toBe(40);
    const page = await client.invoke('documents.page', { offset: 0, limit: 3 });
    expect((await client.invoke('documents.get', { id: page.rows[0]!.id })).text.length).toBeGreaterThan(0);
    const broken = await failure(client.invoke('preview.run', { recipeText: 'streams:\n  - name: s\n    documents: [x\n' }));
    expect(broken).toMatchObject({ code: 'CONFIG', line: expect.any(Number) as number });
    expect(broken.message).not.toMatch(/^recipe:\d+: recipe:/);
    const missing = await failure(client.invoke('attributes.histogram', { key: 'nope', bins: 5 }));
    expect(missing).toMatchObject({ code: 'CONFIG', field: 'key' });
  });

  it('says the index is stale when files change, go, or are added outside the app (documents or a new attribute set), and not after a rebuild', async () => {
    const dir = await indexed({ files: 2, docs: 10 });
    let client = start(dir).client;
    const stale = async (): Promise<boolean> => (await client.invoke('workspace.info', {})).index.stale;
    expect(await stale()).toBe(false);
    const [first] = readdirSync(join(dir, 'documents')).sort();
    const doc = join(dir, 'documents', first!);
    const attr = join(dir, 'attributes', 'lengths', first!);
    // A documents file added: the index knows nothing of its documents.
    copyFileSync(doc, join(dir, 'documents', 'added.jsonl.gz'));
    expect(await stale()).toBe(true);
    rmSync(join(dir, 'documents', 'added.jsonl.gz'));
    expect(await stale()).toBe(false);
    // An attribute set added for an indexed file (a tag run outside the app).
    mkdirSync(join(dir, 'attributes', 'more'));
    copyFileSync(attr, join(dir, 'attributes', 'more', first!));
    expect(await stale()).toBe(true);
    // Rebuilt outside the app: the open snapshot is behind until the app opens the new one.
    await buildIndex(dir);
    expect(await stale()).toBe(true);
    await open!.host.close();
    await open!.client.close();
    client = start(dir).client;
    expect(await stale()).toBe(false);
    // An indexed attribute file gone, then a documents file rewritten.
    rmSync(join(dir, 'attributes', 'more', first!));
    expect(await stale()).toBe(true);
    copyFileSync(attr, join(dir, 'attributes', 'more', first!));
    utimesSync(join(dir, 'attributes', 'more', first!), statSync(join(dir, 'attributes', 'more', first!)).atime, new Date(Date.now() + 5000));
    expect(await stale()).toBe(true);
  });

  it('answers workspace.info while a long preview runs, in well under 200 ms', async () => {
    const dir = await indexed({ files: 4, docs: 5000 });
    const { client } = start(dir);
    await client.invoke('workspace.info', {});
    const t0 = performance.now();
    // Enough rules that the preview lasts well past the probes' 200 ms bound on a fast machine too (≈ 20 ms a rule here).
    const long = client.invoke('preview.run', { recipeText: slowRecipe(72) });
    const latencies: number[] = [];
    let done = false;
    void long.finally(() => (done = true));
    while (!done) {
      const t = performance.now();
      await client.invoke('workspace.info', {});
      latencies.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 20));
    }
    const previewMs = performance.now() - t0;
    // On a shared machine one answer in fifty may be descheduled; a blocked host would have one answer, after the preview.
    const slow = latencies.filter((ms) => ms >= 200).length;
    console.log(`preview ${previewMs.toFixed(0)} ms; workspace.info answered ${latencies.length} times meanwhile, ${slow} at or past 200 ms, slowest ${Math.max(...latencies).toFixed(1)} ms`);
    expect((await long).rules).toHaveLength(72);
    expect(previewMs).toBeGreaterThan(500);
    expect(latencies.length).toBeGreaterThanOrEqual(10);
    expect(slow).toBeLessThanOrEqual(Math.floor(latencies.length * 0.02));
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it('cancels an older preview when a newer one arrives: CANCELLED for the older, the newer answers', async () => {
    const dir = await indexed({ files: 4, docs: 5000 });
    const logs: string[] = [];
    const { client, host } = start(dir, { preview: { graceMs: 10_000 } }, logs);
    await client.invoke('workspace.info', {});
    const older = client.call('preview.run', { recipeText: slowRecipe(72, 'a') });
    const queued = client.call('preview.run', { recipeText: slowRecipe(72, 'b') });
    await new Promise((r) => setTimeout(r, 300));
    const t = performance.now();
    const newer = await client.invoke('preview.run', { recipeText: slowRecipe(1, 'c') });
    expect(newer.total.docs).toBe(20_000);
    expect(await older).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(await queued).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    // Stopped cooperatively, well before the older would have finished, and the worker (with its caches) kept.
    expect(performance.now() - t).toBeLessThan(1500);
    expect(logs.filter((l) => /terminating the preview worker/.test(l))).toEqual([]);
    expect(host.index).toBeDefined();
  });

  it('terminates a worker that does not stop within the grace period, says so, and serves on with a fresh one', async () => {
    const dir = await indexed();
    const logs: string[] = [];
    const { client } = start(dir, { preview: { graceMs: 300, delayMs: 2_000 } }, logs);
    const recipeText = (await client.invoke('recipe.read', { path: 'recipes/short.yaml' })).text;
    const older = client.call('preview.run', { recipeText });
    await new Promise((r) => setTimeout(r, 200));
    const t = performance.now();
    const newer = client.call('preview.run', { recipeText });
    expect(await older).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    expect(performance.now() - t).toBeLessThan(1500);
    expect(logs.some((l) => /did not stop within 300 ms: terminating the preview worker .*caches are lost/.test(l))).toBe(true);
    // The fresh worker is just as deaf (the hook), but nothing supersedes it: it answers.
    expect(await newer).toMatchObject({ ok: true, result: { total: { docs: 40 } } });
  });

  it('stops a call that runs past the budget and fails only that call', async () => {
    const dir = await indexed();
    const logs: string[] = [];
    const { client } = start(dir, { preview: { maxCallMs: 300, delayMs: 2_000 } }, logs);
    const e = await failure(client.invoke('preview.lint', { recipeText: 'streams: []' }));
    expect(e).toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/lint took longer than 0.3 s/) as string });
    expect(logs.some((l) => /lint ran for more than 0.3 s/.test(l))).toBe(true);
  });
});
