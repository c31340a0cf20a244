// One request's failure stays that request's: params or results a transport cannot serialize become errors, the host and its channel go on.
import { afterEach, describe, expect, it } from 'vitest';
import type { HostMessage } from '../../shared/contract/index.js';
import { scratchDir } from '../engine/testing.js';
import { HostClient } from './client.js';
import { serveHost, type Handlers } from './dispatch.js';
import { forkHost } from './launch-process.js';
import { HostSupervisor } from './supervisor.js';
import { makeWorkspace } from './testing.js';
import { memoryPair, type HostEndpoint } from './transport.js';

function nested(depth: number): unknown {
  let v: unknown = [];
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

let supervisor: HostSupervisor | undefined;
afterEach(async () => {
  await supervisor?.close();
  supervisor = undefined;
});

describe('host dispatch', () => {
  it('answers a result the channel cannot serialize with a plain INTERNAL error, and keeps serving', async () => {
    const sent: HostMessage[] = [];
    const listeners: ((m: unknown) => void)[] = [];
    // The child-process IPC serializer throws on deep values; this endpoint does the same for any message it cannot JSON-encode.
    const endpoint: HostEndpoint = {
      send: (m) => {
        JSON.stringify(m);
        sent.push(m);
      },
      onMessage: (l) => {
        listeners.push(l);
        return () => undefined;
      },
      close: () => undefined,
    };
    const handlers = { 'jobs.list': () => nested(20_000), 'settings.get': () => ({ envAllowList: [] }) } as unknown as Handlers;
    serveHost(endpoint, handlers);
    for (const l of listeners) l({ type: 'request', id: 1, method: 'jobs.list', params: {} });
    for (const l of listeners) l({ type: 'request', id: 2, method: 'settings.get', params: {} });
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([
      { type: 'response', id: 1, ok: false, error: { code: 'INTERNAL', message: expect.stringMatching(/^the answer to jobs\.list could not be sent: .*call stack/) as string } },
      { type: 'response', id: 2, ok: true, result: { envAllowList: [] } },
    ]);
  });

  it('fails a call whose params the in-memory transport cannot clone, alone', async () => {
    const pair = memoryPair();
    const handlers = { 'jobs.list': () => [] } as unknown as Handlers;
    serveHost(pair.host, handlers);
    const client = new HostClient(pair.client);
    expect(await client.call('jobs.list', { deep: nested(20_000) })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST', message: expect.stringMatching(/cannot be sent to the engine host/) as string } });
    expect(await client.call('jobs.list', {})).toEqual({ ok: true, result: [] });
    await client.close();
  });

  it('fails a call whose params a forked host’s IPC cannot serialize, and the host answers the next one', async () => {
    const dir = makeWorkspace(scratchDir());
    supervisor = new HostSupervisor(forkHost({ workspace: dir, stdio: 'ignore' }));
    expect((await supervisor.invoke('workspace.info', {})).recipes).toEqual(['recipes/short.yaml']);
    expect(await supervisor.call('preview.lint', { recipeText: nested(5000) })).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
    expect((await supervisor.invoke('workspace.info', {})).recipes).toEqual(['recipes/short.yaml']);
  });
});
