// Browser-mode security: token, Host and Origin checks for HTTP and WebSocket, the CSP and other headers, no traversal.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { HostMessage } from '../shared/contract/index.js';
import { HostClient } from '../workers/host/client.js';
import { createHost } from '../workers/host/host.js';
import { makeWorkspace, scratchDir } from '../workers/host/testing.js';
import { memoryPair } from '../workers/host/transport.js';
import { HOSTILE_FRAMES, rawWebSocket } from './raw-ws.js';
import { contentSecurityPolicy } from './security.js';
import { startServer, type RunningServer } from './server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close();
  await server?.host.close();
  server = undefined;
});

describe('content security policy', () => {
  it('allows scripts only from the app; Electron’s has no WebSocket source', () => {
    for (const csp of [contentSecurityPolicy(4000), contentSecurityPolicy()]) {
      expect(csp).toMatch(/(^|; )script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/unsafe-eval/);
      expect(csp).toMatch(/(^|; )default-src 'none'(;|$)/);
    }
    expect(contentSecurityPolicy()).toMatch(/(^|; )connect-src 'self'(;|$)/);
  });
});

async function serve(opts: { built?: boolean } = {}): Promise<{ s: RunningServer; outside: string; renderer: string }> {
  const base = scratchDir();
  const outside = join(base, 'secret.txt');
  writeFileSync(outside, 'top secret');
  const renderer = join(base, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  if (opts.built !== false) writeFileSync(join(renderer, 'index.html'), '<!doctype html><script type="module" src="./assets/app.js"></script>');
  writeFileSync(join(renderer, 'assets', 'app.js'), 'console.log(1)');
  symlinkSync(outside, join(renderer, 'assets', 'leak.js'));
  const workspace = makeWorkspace(join(base, 'ws'));
  const pair = memoryPair();
  createHost({ workspace, endpoint: pair.host, openEngine: () => { throw new Error('no index in these tests'); } });
  server = await startServer({ workspace, rendererDir: renderer, host: new HostClient(pair.client) });
  return { s: server, outside, renderer };
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function get(s: RunningServer, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: s.port, path, method, headers: { host: `127.0.0.1:${s.port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const cookieOf = (s: RunningServer): string => `assay_${s.port}=${s.token}`;

describe('assay serve over HTTP', () => {
  it('serves the page for the tokened URL, sets a strict cookie and strict headers', async () => {
    const { s } = await serve();
    expect(s.url).toBe(`http://127.0.0.1:${s.port}/?token=${s.token}`);
    const r = await get(s, `/?token=${s.token}`);
    expect(r.status).toBe(200);
    expect(r.body).toContain('<script type="module"');
    expect(r.headers['set-cookie']?.[0]).toBe(`${cookieOf(s)}; HttpOnly; SameSite=Strict; Path=/`);
    const csp = String(r.headers['content-security-policy']);
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src'));
    expect(scriptSrc?.trim()).toBe("script-src 'self'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("worker-src 'self' blob:");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${s.port}`);
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    // Assets load with the cookie the page received.
    const js = await get(s, '/assets/app.js', { cookie: cookieOf(s) });
    expect(js.status).toBe(200);
    expect(js.headers['content-type']).toMatch(/^text\/javascript/);
  });

  it('refuses requests without the token, with a wrong one, or from a foreign Origin or Host', async () => {
    const { s } = await serve();
    const refused = async (path: string, headers: Record<string, string>, status: number): Promise<void> => {
      const r = await get(s, path, headers);
      expect(r.status, `${path} ${JSON.stringify(headers)}`).toBe(status);
      expect(r.body).not.toContain('<script');
      expect(r.headers['set-cookie']).toBeUndefined();
    };
    await refused('/', {}, 401);
    await refused('/assets/app.js', {}, 401);
    await refused('/?token=wrong', {}, 401);
    await refused(`/?token=${s.token}x`, { cookie: cookieOf(s) }, 401);
    await refused('/', { cookie: `assay_${s.port}=nope` }, 401);
    await refused(`/?token=${s.token}`, { host: `evil.example:${s.port}` }, 403);
    await refused(`/?token=${s.token}`, { host: `127.0.0.1:${s.port + 1}` }, 403);
    await refused(`/?token=${s.token}`, { origin: 'http://evil.example' }, 403);
    await refused('/assets/app.js', { cookie: cookieOf(s), 'sec-fetch-site': 'cross-site' }, 403);
    expect((await get(s, `/?token=${s.token}`, { origin: `http://localhost:${s.port}`, host: `localhost:${s.port}` })).status).toBe(200);
    expect((await get(s, `/?token=${s.token}`, {}, 'POST')).status).toBe(405);
  });

  it('never serves a file outside the built renderer', async () => {
    const { s } = await serve();
    const auth = { cookie: cookieOf(s) };
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/%2e%2e/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets/..%5c..%5csecret.txt', '/assets/leak.js', '/%00.js']) {
      const r = await get(s, path, auth);
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.body, path).not.toContain('top secret');
    }
  });

  it('explains how to build the renderer when it is missing', async () => {
    const { s } = await serve({ built: false });
    const r = await get(s, `/?token=${s.token}`);
    expect(r.status).toBe(503);
    expect(r.body).toContain('npx vite build --config renderer/vite.config.ts');
  });
});

function connect(s: RunningServer, path: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${s.port}${path}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

function ask(ws: WebSocket, frame: unknown): Promise<HostMessage> {
  return new Promise((resolve) => {
    ws.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()) as HostMessage));
    ws.send(JSON.stringify(frame));
  });
}

describe('assay serve over WebSocket', () => {
  it('serves the contract to a tokened socket (URL or cookie) and validates requests', async () => {
    const { s } = await serve();
    const ws = await connect(s, `/ws?token=${s.token}`, { origin: `http://127.0.0.1:${s.port}` });
    const info = await ask(ws, { type: 'request', id: 7, method: 'workspace.info', params: {} });
    expect(info).toMatchObject({ type: 'response', id: 7, ok: true, result: { recipes: ['recipes/short.yaml'] } });
    const bad = await ask(ws, { type: 'request', id: 8, method: 'recipe.read', params: { path: 7 } });
    expect(bad).toMatchObject({ id: 8, ok: false, error: { code: 'BAD_REQUEST', field: 'path' } });
    const escape = await ask(ws, { type: 'request', id: 9, method: 'recipe.read', params: { path: '../../etc/passwd' } });
    expect(escape).toMatchObject({ id: 9, ok: false, error: { code: 'FORBIDDEN' } });
    ws.close();
    const byCookie = await connect(s, '/ws', { cookie: cookieOf(s) });
    expect(await ask(byCookie, { type: 'request', id: 1, method: 'jobs.list', params: {} })).toMatchObject({ id: 1, ok: true, result: [] });
    byCookie.close();
  });

  it('forks and supervises its own engine host when none is given, and stops it on close', async () => {
    const workspace = makeWorkspace(scratchDir());
    const s = await startServer({ workspace, rendererDir: scratchDir() });
    try {
      const ws = await connect(s, `/ws?token=${s.token}`);
      expect(await ask(ws, { type: 'request', id: 1, method: 'workspace.info', params: {} })).toMatchObject({ id: 1, ok: true, result: { recipes: ['recipes/short.yaml'] } });
      ws.close();
    } finally {
      await s.close();
    }
    await expect(s.host.invoke('jobs.list', {})).rejects.toThrow('the engine host was shut down');
  });

  it('refuses sockets without the token, with a wrong one, from a foreign Origin or Host, or on another path', async () => {
    const { s } = await serve();
    await expect(connect(s, '/ws')).rejects.toThrow('HTTP 401');
    await expect(connect(s, '/ws?token=wrong')).rejects.toThrow('HTTP 401');
    await expect(connect(s, `/ws?token=${s.token}`, { origin: 'http://evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(s, `/ws?token=${s.token}`, { host: 'evil.example' })).rejects.toThrow('HTTP 403');
    await expect(connect(s, `/other?token=${s.token}`)).rejects.toThrow('HTTP 404');
  });
});

describe('assay serve under a hostile client', () => {
  for (const [name, bytes] of Object.entries(HOSTILE_FRAMES)) {
    it(`closes only the socket that sent ${name}; other clients are still served`, async () => {
      const { s } = await serve();
      const bystander = await connect(s, `/ws?token=${s.token}`);
      const raw = await rawWebSocket(s.port, s.token);
      raw.write(bytes());
      await raw.closed;
      expect(await ask(bystander, { type: 'request', id: 1, method: 'workspace.info', params: {} })).toMatchObject({ id: 1, ok: true });
      const later = await connect(s, `/ws?token=${s.token}`);
      expect(await ask(later, { type: 'request', id: 2, method: 'jobs.list', params: {} })).toMatchObject({ id: 2, ok: true });
      bystander.close();
      later.close();
    });
  }

  it('answers params nested 5,000 deep (a 10 KB message) with BAD_REQUEST and keeps serving', async () => {
    const { s } = await serve();
    const ws = await connect(s, `/ws?token=${s.token}`);
    const deep = `{"type":"request","id":41,"method":"preview.run","params":{"recipeText":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
    expect(deep.length).toBeGreaterThan(10_000);
    const r = await new Promise<HostMessage>((resolve) => {
      ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()) as HostMessage));
      ws.send(deep);
    });
    expect(r).toMatchObject({ id: 41, ok: false, error: { code: 'BAD_REQUEST', message: expect.stringMatching(/deeper than 64/) as string } });
    expect(await ask(ws, { type: 'request', id: 42, method: 'workspace.info', params: {} })).toMatchObject({ id: 42, ok: true });
    ws.close();
  });

  it('answers a message over 10 MB with BAD_REQUEST naming the limit', async () => {
    const { s } = await serve();
    const ws = await connect(s, `/ws?token=${s.token}`);
    const big = `{"type":"request","id":43,"method":"preview.lint","params":{"recipeText":"${'x'.repeat(10 * 1024 * 1024 + 10)}"}}`;
    const r = await new Promise<HostMessage>((resolve) => {
      ws.once('message', (d: Buffer) => resolve(JSON.parse(d.toString()) as HostMessage));
      ws.send(big);
    });
    expect(r).toMatchObject({ id: 43, ok: false, error: { code: 'BAD_REQUEST', message: expect.stringMatching(/larger than 10 MB/) as string } });
    expect(await ask(ws, { type: 'request', id: 44, method: 'jobs.list', params: {} })).toMatchObject({ id: 44, ok: true });
    ws.close();
  });

  it('turns a forward that throws into that request’s error', async () => {
    const workspace = makeWorkspace(scratchDir());
    const pair = memoryPair();
    createHost({ workspace, endpoint: pair.host, openEngine: () => { throw new Error('no index in these tests'); } });
    /** A host whose forward throws for one method, as a transport's serializer does on a value nested too deep. */
    class ThrowingClient extends HostClient {
      override call(method: string, params: unknown): ReturnType<HostClient['call']> {
        if (method === 'jobs.list') throw new RangeError('Maximum call stack size exceeded');
        return super.call(method, params);
      }
    }
    server = await startServer({ workspace, rendererDir: scratchDir(), host: new ThrowingClient(pair.client) });
    const ws = await connect(server, `/ws?token=${server.token}`);
    expect(await ask(ws, { type: 'request', id: 5, method: 'jobs.list', params: {} })).toMatchObject({ id: 5, ok: false, error: { code: 'INTERNAL', message: expect.stringMatching(/Maximum call stack/) as string } });
    expect(await ask(ws, { type: 'request', id: 6, method: 'workspace.info', params: {} })).toMatchObject({ id: 6, ok: true });
    ws.close();
  });
});
