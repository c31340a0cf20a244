// `assay serve` against a hostile client: bad frames, deep and oversized messages, 1,000 rapid requests, long and catastrophic previews; stopping it leaves nothing running.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_FRAMES, rawWebSocket } from '../main/raw-ws.js';
import { buildIndex } from '../workers/engine/index/index.js';
import { ensureBuilt } from '../workers/engine/cli/run-cli.js';
import { tempDir, writeJsonl } from '../workers/engine/testing.js';
import { makeWorkspace } from '../workers/host/testing.js';
import { answeredPromptly, descendants, infoLatencies, startServe, waitGone, WsClient, type ServeProcess } from './server-process.js';

const scratch = tempDir('assay-reliability-server-');
let workspace = '';
let serve: ServeProcess;
let bystander: WsClient;

/** Every rule needs the exact evaluator on all 20,000 documents: seconds of work, interruptible between chunks. */
function slowRecipe(rules: number, tag: string): string {
  const lines = Array.from({ length: rules }, (_, i) => `        - "$[?(@.text ~= 'zq${i}${tag}')]"`);
  return `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    output: {path: output/s}\n    filter:\n      exclude:\n${lines.join('\n')}\n`;
}

const regexRecipe = (re: string): string => `streams:\n  - name: s\n    documents: [documents/*.jsonl.gz]\n    output: {path: output/s}\n    filter:\n      exclude:\n        - "$[?(@.text ~= '${re}')]"\n`;

beforeAll(async () => {
  ensureBuilt();
  workspace = makeWorkspace(join(scratch.dir, 'ws'), { files: 4, docs: 5000, words: 60 });
  // The probe's catastrophic input: 60 `a` then `b` (backtracking regexes take 2^60 steps on it).
  writeJsonl(join(workspace, 'documents', 'part-z.jsonl.gz'), [1, 2, 3].map((i) => ({ id: `aab-${i}`, text: `${'a'.repeat(60)}b`, source: 'web' })));
  await buildIndex(workspace);
  serve = await startServe(workspace);
  bystander = await WsClient.open(serve);
  expect(await bystander.call('workspace.info', {})).toMatchObject({ ok: true });
}, 120_000);

afterAll(async () => {
  bystander?.close();
  if (serve && serve.proc.exitCode === null) {
    const tree = [serve.proc.pid as number, ...descendants(serve.proc.pid as number)];
    serve.proc.kill('SIGTERM');
    await waitGone(tree, 20_000);
  }
  scratch.cleanup();
});

describe('a hostile client of assay serve', () => {
  it('survives each bad frame (over the limit, invalid UTF-8, RSV1, unmasked): only that socket closes', async () => {
    for (const [name, bytes] of Object.entries(HOSTILE_FRAMES)) {
      const raw = await rawWebSocket(serve.port, serve.token);
      raw.write(bytes());
      await raw.closed;
      expect(serve.proc.exitCode, name).toBeNull();
      expect((await bystander.call('workspace.info', {})).ok, name).toBe(true);
    }
  });

  it('answers deep and oversized messages with BAD_REQUEST and keeps serving', async () => {
    const hostile = await WsClient.open(serve);
    const deep = `{"type":"request","id":9001,"method":"preview.run","params":{"recipeText":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    expect(deep.length).toBeLessThan(10_100);
    expect(await hostile.raw(deep, 9001)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    const big = `{"type":"request","id":9002,"method":"preview.lint","params":{"recipeText":"${'x'.repeat(10.5 * 1024 * 1024)}"}}`;
    expect(await hostile.raw(big, 9002)).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect((await hostile.call('jobs.list', {})).ok).toBe(true);
    expect((await bystander.call('workspace.info', {})).ok).toBe(true);
    hostile.close();
  });

  it('answers 1,000 rapid requests while another client keeps getting workspace.info', async () => {
    const hostile = await WsClient.open(serve);
    const kinds: [string, unknown][] = [
      ['workspace.info', {}],
      ['jobs.list', {}],
      ['recipe.read', { path: '../../etc/passwd' }],
      ['no.such.method', {}],
      ['preview.lint', { recipeText: 'streams: [' }],
      ['attributes.histogram', { key: 'nope', bins: 0 }],
    ];
    const flood = Promise.all(Array.from({ length: 1000 }, (_, i) => hostile.call(...(kinds[i % kinds.length] as [string, unknown]))));
    const latencies = await infoLatencies(bystander, flood, 5);
    const answers = await flood;
    expect(answers).toHaveLength(1000);
    expect(answers.filter((a) => a.ok).length).toBeGreaterThan(300);
    expect(latencies.length).toBeGreaterThan(0);
    console.log(`1,000 rapid requests: bystander's workspace.info answered ${latencies.length}× meanwhile, slowest ${Math.max(...latencies).toFixed(0)} ms`);
    expect(Math.max(...latencies)).toBeLessThan(1000);
    hostile.close();
  });
});

describe('previews never block the host', () => {
  it('a long preview.run does not delay another client’s workspace.info beyond 200 ms', async () => {
    const a = await WsClient.open(serve);
    const t = performance.now();
    const long = a.call('preview.run', { recipeText: slowRecipe(120, 'long') });
    const latencies = await infoLatencies(bystander, long);
    const previewMs = performance.now() - t;
    expect((await long).ok).toBe(true);
    const prompt = answeredPromptly(latencies);
    console.log(`preview ${previewMs.toFixed(0)} ms; workspace.info meanwhile: ${prompt.summary}`);
    expect(previewMs).toBeGreaterThan(1000);
    expect(prompt.ok, prompt.summary).toBe(true);
    a.close();
  });

  it('a newer preview cancels an older one (CANCELLED), and the newer answers', async () => {
    const a = await WsClient.open(serve);
    const older = a.call('preview.run', { recipeText: slowRecipe(72, 'old') });
    await new Promise((r) => setTimeout(r, 300));
    const newer = await a.call('preview.run', { recipeText: slowRecipe(1, 'new') });
    expect(newer.ok).toBe(true);
    expect(await older).toMatchObject({ ok: false, error: { code: 'CANCELLED' } });
    a.close();
  });

  for (const re of ['(a|aa)+$', '(\\\\w|(a|a))+(?:a|b)$']) {
    it(`a catastrophic regex ${re} settles within 2 s while workspace.info answers in < 200 ms`, async () => {
      const a = await WsClient.open(serve);
      const t = performance.now();
      const run = a.call('preview.run', { recipeText: regexRecipe(re) });
      const latencies = await infoLatencies(bystander, run);
      const r = await run;
      expect(performance.now() - t).toBeLessThan(2000);
      // Linear-time matching answers it; had it not, an error (not a hang) would be the answer.
      if (!r.ok) expect(r.error.code).not.toBe('INTERNAL');
      // Too short for many samples: every answer that came is held to the bound.
      expect(Math.max(0, ...latencies)).toBeLessThan(200);
      a.close();
    });
  }
});

describe('stopping assay serve', () => {
  /** A server busy with a job (its own processes) and a preview far longer than the time it is given to stop. */
  async function busyServer(): Promise<{ s: ServeProcess; tree: number[] }> {
    const s = await startServe(workspace);
    const c = await WsClient.open(s);
    void c.call('preview.run', { recipeText: slowRecipe(150, 'stop') });
    const job = await c.call('jobs.start', { kind: 'tag', configText: 'documents: [documents/*.jsonl.gz]\ntaggers: [gopher_v1]\nexperiment: stopping\n' });
    expect(job.ok).toBe(true);
    // The host, the job process (and its pool) must all exist before the stop, or the test proves nothing.
    let tree: number[] = [];
    for (let i = 0; i < 100 && tree.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 100));
      tree = descendants(s.proc.pid as number);
    }
    expect(tree.length).toBeGreaterThanOrEqual(2);
    c.close();
    return { s, tree: [s.proc.pid as number, ...tree] };
  }

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL'] as const) {
    it(`${signal} to the server ends the host and its job processes within seconds, mid-preview`, async () => {
      const { s, tree } = await busyServer();
      const t = performance.now();
      s.proc.kill(signal);
      const left = await waitGone(tree, 10_000);
      expect(left, s.stderr()).toEqual([]);
      console.log(`${signal}: ${tree.length} processes gone in ${(performance.now() - t).toFixed(0)} ms`);
    });
  }
});
