// ledger.predict and ledger.plan on the preview worker thread (a newer one cancels a queued older), and runs.ledger of a finished mix.
import { afterEach, describe, expect, it } from 'vitest';
import type { PlanResult } from '../../shared/contract/index.js';
import { buildIndex, PreviewEngine } from '../engine/index/index.js';
import { parseMixerConfig } from '../engine/mix/config.js';
import { runMix } from '../engine/mix/mixer.js';
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

function start(workspace: string, extra: Partial<HostOptions> = {}): HostClient {
  const pair = memoryPair();
  open = { host: createHost({ workspace, endpoint: pair.host, ...extra }), client: new HostClient(pair.client) };
  return open.client;
}

async function indexed(): Promise<{ dir: string; recipeText: string }> {
  const dir = makeWorkspace(scratchDir(), { files: 2, docs: 60, words: 80 });
  await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
  await buildIndex(dir);
  const { readFileSync } = await import('node:fs');
  return { dir, recipeText: readFileSync(`${dir}/recipes/short.yaml`, 'utf8') };
}

describe('token ledger methods', () => {
  it('predicts and plans on the worker thread as the engine does in process; bad requests and infeasible plans say why', async () => {
    const { dir, recipeText } = await indexed();
    const client = start(dir);
    const engine = PreviewEngine.open(dir);
    try {
      const l = await client.invoke('ledger.predict', { recipeText, epochs: 2 });
      expect({ ...l, elapsedMs: 0 }).toEqual({ ...engine.tokenLedger(recipeText, { epochs: 2 }), elapsedMs: 0 });
      expect(l.sources.map((s) => s.source).sort()).toEqual(['forum', 'web']);
      const request = { budget: Math.floor(l.total.filtered.tokens * 0.5), targets: { web: 0.7, forum: 0.3 }, maxRepetitions: 2 };
      const p = (await client.invoke('ledger.plan', { recipeText, request })) as Extract<PlanResult, { feasible: true }>;
      expect(p).toEqual({ ...engine.plan(recipeText, request), ledger: { ...p.ledger } });
      expect(p.recipe).toMatch(/assay:/);
      const refused = await client.invoke('ledger.plan', { recipeText, request: { ...request, budget: l.total.filtered.tokens * 10, maxRepetitions: 1 } });
      expect(refused).toMatchObject({ feasible: false, source: expect.any(String) as string });
      expect(await failure(client.invoke('ledger.plan', { recipeText, request: { ...request, targets: { web: 1.5 } } }))).toMatchObject({ code: 'BAD_REQUEST' });
      expect(await failure(client.invoke('ledger.predict', { recipeText, epochs: 0 }))).toMatchObject({ code: 'BAD_REQUEST' });
    } finally {
      engine.close();
    }
  });

  it('a newer ledger cancels one still queued, as previews do', async () => {
    const { dir, recipeText } = await indexed();
    const client = start(dir, { preview: { delayMs: 400 } });
    const running = client.call('ledger.predict', { recipeText });
    await new Promise((r) => setTimeout(r, 50));
    const queued = client.call('ledger.predict', { recipeText, epochs: 2 });
    const newest = await client.invoke('ledger.predict', { recipeText, epochs: 3 });
    expect(newest.epochs).toBe(3);
    expect(await queued).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    // The one already running either finished or stopped at the engine's next check; it never answers for the newer text.
    const first = await running;
    if (first.ok) expect((first.result as { epochs: number }).epochs).toBe(1);
  });

  it('runs.ledger: a finished mix output’s ledger with workspace-relative paths; other runs are refused', async () => {
    const { dir, recipeText } = await indexed();
    await runMix(parseMixerConfig(recipeText, 'short.yaml'), { cwd: dir, processes: 1 });
    const client = start(dir);
    const r = await client.invoke('runs.ledger', { path: 'output/s', epochs: 2 });
    expect(r).toMatchObject({ output: 'output/s', stage: 'mix', tokensRun: null, epochs: 2 });
    const predicted = await client.invoke('ledger.predict', { recipeText, epochs: 2 });
    expect(r.sources.map((s) => [s.source, s.raw.docs, s.filtered.docs, s.sampled.docs, s.seen.docs])).toEqual(predicted.sources.map((s) => [s.source, s.raw.docs, s.filtered.docs, s.sampled.docs, s.seen.docs]));
    expect(await failure(client.invoke('runs.ledger', { path: 'attributes/lengths' }))).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/a tag run has no token ledger/) as string });
    expect(await failure(client.invoke('runs.ledger', { path: '../elsewhere' }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});
