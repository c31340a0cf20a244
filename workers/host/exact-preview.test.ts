// Exact figures as a job: a `preview` job counts every indexed document, keeps them for the recipe text and the index build, the app reads them back.
import { writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../engine/index/index.js';
import { runTag } from '../engine/tag/runtime.js';
import { scratchDir } from '../engine/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { exactPreviewPath } from './exact-preview.js';
import { makeWorkspace, memoryHost, type MemoryHost } from './testing.js';

let open: MemoryHost | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const recipe = (limit: number): string =>
  `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    attributes: [lengths]\n    output: {path: output/s}\n    filter:\n      exclude:\n        - "$.attributes[?(@.lengths__whitespace_tokenizer_v1__length[0][2] < ${limit})]"\n        - "$[?(@.text ~= 'zzq')]"\n`;

describe('exact figures as a preview job', () => {
  it('counts every document in a job listed under Runs, keeps the figures for that text and index build, and refuses a bad recipe before starting', { timeout: 120_000 }, async () => {
    const dir = makeWorkspace(scratchDir(), { files: 2, docs: 40, words: 60 });
    await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
    await buildIndex(dir);
    const h = (open = memoryHost(dir, openPreviewEngine));
    const text = recipe(50);
    expect(await h.client.invoke('preview.exact', { recipeText: text })).toBeNull();

    const job = await h.client.invoke('jobs.start', { kind: 'preview', configText: text });
    expect(job.kind).toBe('preview');
    const done = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 90_000);
    expect(done.error).toBeUndefined();
    expect(done.state).toBe('done');
    const whole = openPreviewEngine(dir).preview(text);
    expect(whole.total.docs).toBe(80);
    expect(done.summary).toContain(`kept ${whole.total.kept.docs} `);
    // Progress counts the recipe's rules as they are evaluated, ending at all of them.
    expect(done.progress).toMatchObject({ done: 2, total: 2, unit: 'rules' });
    expect((await h.client.invoke('jobs.list', {})).map((j) => j.jobId)).toContain(job.jobId);

    const kept = await h.client.invoke('preview.exact', { recipeText: text });
    expect(kept?.exact).toBe(true);
    expect(kept?.total).toEqual(whole.total);
    expect(kept?.rules.map((r) => r.sequential)).toEqual(whole.rules.map((r) => r.sequential));
    // Another text has none; a new build of the index makes the kept figures stale.
    expect(await h.client.invoke('preview.exact', { recipeText: recipe(51) })).toBeNull();
    await buildIndex(dir);
    expect(await h.client.invoke('preview.exact', { recipeText: text })).toBeNull();
    // A file someone else wrote in its place is not taken for figures.
    writeFileSync(exactPreviewPath(dir, text), '{"v":1,"recipeSha":"x","index":"0:","result":{}}');
    expect(await h.client.invoke('preview.exact', { recipeText: text })).toBeNull();

    const bad = await h.client.invoke('jobs.start', { kind: 'preview', configText: 'streams: 3\n' }).then(
      () => null,
      (e: unknown) => e as { code?: string; message: string },
    );
    expect(bad?.message).toMatch(/streams/);
  });
});
