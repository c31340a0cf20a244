// In the app, `${oc.env:NAME}` reads only the workspace's allowed variables (preview, lint, jobs and the job process), and no error shows a value.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorPayload } from '../../shared/contract/index.js';
import { buildIndex } from '../engine/index/index.js';
import { runTag } from '../engine/tag/runtime.js';
import { scratchDir } from '../engine/testing.js';
import { jobEnv, redactEnv, takeEnvironment } from './app-env.js';
import { HostClient } from './client.js';
import { createHost, type Host } from './host.js';
import { failure, makeWorkspace } from './testing.js';
import { memoryPair } from './transport.js';

const NAME = 'ASSAY_TEST_SECRET_VALUE';
/** A second secret that is a path outside the workspace (a job writing there would be an escape as well as a leak). */
const PATH_NAME = 'ASSAY_TEST_SECRET_PATH';
const SECRET = 'hunter2-token-9f8e7d';
let outside = '';

let open: { host: Host; client: HostClient } | undefined;
beforeEach(() => {
  outside = scratchDir();
  process.env[NAME] = SECRET;
  process.env[PATH_NAME] = join(outside, 'hunter2-out');
});
afterEach(async () => {
  delete process.env[NAME];
  delete process.env[PATH_NAME];
  await open?.host.close();
  await open?.client.close();
  open = undefined;
});

function start(workspace: string): HostClient {
  const pair = memoryPair();
  // The default environment source is process.env, which holds the secret: only the allow-list may let it through.
  open = { host: createHost({ workspace, endpoint: pair.host }), client: new HostClient(pair.client) };
  return open.client;
}


const recipe = (name: string, output = 'output/s'): string =>
  `streams:\n  - name: "${name}"\n    documents: [documents/*.jsonl.gz]\n    output: {path: "${output}"}\n    filter:\n      exclude: ["$.attributes[?(@.lengths__whitespace_tokenizer_v1__length[0][2] < 40)]"]\n`;

async function indexed(): Promise<string> {
  const dir = makeWorkspace(scratchDir());
  await runTag({ documents: ['documents/*.jsonl.gz'], taggers: ['whitespace_tokenizer_v1'], experiment: 'lengths', cwd: dir });
  await buildIndex(dir);
  return dir;
}

describe('environment allow-list', () => {
  it('resolves a variable in preview, lint and jobs only once the workspace allows it; no error text shows its value', async () => {
    const dir = await indexed();
    const client = start(dir);
    const texts: string[] = [];
    const seen = (e: ErrorPayload): ErrorPayload => (texts.push(JSON.stringify(e)), e);

    // Not allowed: unset, so Dolma's default applies, or an error names the variable.
    const withDefault = await client.invoke('preview.run', { recipeText: recipe(`\${oc.env:${NAME},fallback}`) });
    expect(withDefault.rules[0]?.stream).toBe('fallback');
    const unset = seen(await failure(client.invoke('preview.run', { recipeText: recipe(`\${oc.env:${NAME}}`) })));
    expect(unset).toMatchObject({ code: 'CONFIG', message: expect.stringContaining(`'${NAME}' not found`) as string });
    // Not even a system variable: the app's recipes read nothing the user did not allow.
    seen(await failure(client.invoke('preview.run', { recipeText: recipe('${oc.env:PATH}') })));
    const lint = await client.invoke('preview.lint', { recipeText: recipe(`\${oc.env:${NAME}}`) });
    texts.push(JSON.stringify(lint));
    const check = await client.invoke('jobs.check', { kind: 'mix', configText: recipe('s', `\${oc.env:${NAME}}`) });
    expect(check.ok).toBe(false);
    texts.push(JSON.stringify(check));
    seen(await failure(client.invoke('jobs.start', { kind: 'mix', configText: recipe('s', `\${oc.env:${NAME}}`) })));

    // Allowed: it resolves at once (no restart), and a FORBIDDEN path names the field and the ${oc.env:…} form, not the value.
    await client.invoke('settings.set', { envAllowList: [NAME, PATH_NAME] });
    const allowed = await client.invoke('preview.run', { recipeText: recipe(`\${oc.env:${NAME},fallback}`) });
    expect(allowed.rules[0]?.stream).toBe(SECRET);
    const forbidden = await client.invoke('jobs.check', { kind: 'mix', configText: recipe('s', `\${oc.env:${PATH_NAME}}`) });
    expect(forbidden).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', field: 'streams[0].output.path' } });
    expect(JSON.stringify(forbidden)).toContain(`\${oc.env:${PATH_NAME}}`);
    texts.push(JSON.stringify(forbidden));
    seen(await failure(client.invoke('jobs.start', { kind: 'mix', configText: recipe('s', `\${oc.env:${PATH_NAME}}`) })));
    // A value a schema check echoes is hidden the same way.
    seen(await failure(client.invoke('preview.run', { recipeText: recipe(`\${oc.env:${PATH_NAME}}`) })));

    expect(texts.length).toBeGreaterThan(5);
    for (const t of texts) expect(t).not.toContain('hunter2');
    expect(existsSync(outside) && readdirSync(outside)).toEqual([]);
  });

  it('runs job processes with only the allowed variables, so the job resolves its config as the host checked it', async () => {
    const dir = await indexed();
    process.env[NAME] = 'output/from-secret';
    const client = start(dir);
    const job = await client.invoke('jobs.start', { kind: 'mix', configText: recipe('s', `\${oc.env:${NAME},output/default}`) });
    const end = await new Promise<{ state: string; outputs?: string[] }>((resolve) => {
      const off = client.on('job.state', (j) => j.jobId === job.jobId && j.state !== 'running' && (off(), resolve(j)));
    });
    expect(end).toMatchObject({ state: 'done', outputs: ['output/default'] });
    expect(existsSync(join(dir, 'output/from-secret'))).toBe(false);
  });
});

describe('environment helpers', () => {
  it('redacts allowed values (longest first), leaves short ones', () => {
    expect(redactEnv('/data/x and /data/x/y and 1', { A: '/data/x', B: '/data/x/y', C: '1' })).toBe('${oc.env:A} and ${oc.env:B} and 1');
  });

  it('gives job processes the allowed variables, plus on Windows the few the OS needs', () => {
    const source = { SystemRoot: 'C:\\Windows', SECRET_X: 's', PATH: '/bin' };
    const root = makeWorkspace(scratchDir());
    expect(jobEnv(root, source, 'linux')).toEqual({});
    expect(jobEnv(root, source, 'win32')).toEqual({ SystemRoot: 'C:\\Windows' });
  });

  it('narrows a process environment to system variables and returns the whole of it', () => {
    const fake = { env: { PATH: '/bin', HOME: '/h', AWS_SECRET_ACCESS_KEY: 'k', GITHUB_TOKEN: 't', LC_ALL: 'C' } } as unknown as NodeJS.Process;
    const full = takeEnvironment(fake);
    expect(full).toMatchObject({ AWS_SECRET_ACCESS_KEY: 'k', GITHUB_TOKEN: 't' });
    expect(fake.env).toEqual({ PATH: '/bin', HOME: '/h', LC_ALL: 'C' });
  });
});
