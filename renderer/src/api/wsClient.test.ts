import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { requestEnvelope } from '../../../shared/contract/index.js';
import { ApiError } from './errors.js';
import { type SocketLike, WsClient, wsUrl } from './wsClient.js';

/** A socket the test opens, closes and answers by hand. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onclose: SocketLike['onclose'] = null;
  onerror: SocketLike['onerror'] = null;
  constructor(readonly url: string) {}
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.drop();
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  drop() {
    this.readyState = 3;
    this.onclose?.({} as CloseEvent);
  }
  deliver(msg: unknown) {
    this.onmessage?.({ data: typeof msg === 'string' ? msg : JSON.stringify(msg) } as MessageEvent);
  }
  requests() {
    return this.sent.map((s) => requestEnvelope.parse(JSON.parse(s)));
  }
}

function setup(opts: { requestTimeoutMs?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const client = new WsClient({
    url: 'ws://127.0.0.1:9/ws?token=t',
    createSocket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    reconnectDelaysMs: [100, 1000],
    ...opts,
  });
  const last = () => sockets[sockets.length - 1] as FakeSocket;
  return { client, sockets, last };
}

describe('WsClient', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('queues requests until the socket opens, then sends request envelopes and resolves by id', async () => {
    const { client, last } = setup();
    const a = client.invoke('workspace.info', {});
    const b = client.invoke('recipe.read', { path: 'configs/a.yaml' });
    expect(last().sent).toEqual([]);
    last().open();
    const [ra, rb] = last().requests();
    expect(ra).toEqual({ type: 'request', id: ra?.id, method: 'workspace.info', params: {} });
    expect(rb).toMatchObject({ method: 'recipe.read', params: { path: 'configs/a.yaml' } });
    // Answers may come in any order.
    last().deliver({ type: 'response', id: rb?.id, ok: true, result: { path: 'configs/a.yaml', text: 'x' } });
    last().deliver({ type: 'response', id: ra?.id, ok: true, result: { name: 'demo' } });
    await expect(b).resolves.toEqual({ path: 'configs/a.yaml', text: 'x' });
    await expect(a).resolves.toEqual({ name: 'demo' });
  });

  it('rejects with the host error payload, line and column included', async () => {
    const { client, last } = setup();
    last().open();
    const p = client.invoke('preview.run', { recipeText: 'bad' });
    const id = last().requests()[0]?.id;
    last().deliver({ type: 'response', id, ok: false, error: { code: 'PARSE', message: 'bad YAML', line: 3, column: 7 } });
    const err = await p.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).payload).toEqual({ code: 'PARSE', message: 'bad YAML', line: 3, column: 7 });
  });

  it('delivers events to listeners until they unsubscribe, and ignores junk frames', () => {
    const { client, last } = setup();
    last().open();
    const seen: unknown[] = [];
    const off = client.on('job.log', (l) => seen.push(l.line));
    last().deliver('not json');
    last().deliver({ type: 'event', event: 'job.log', payload: { jobId: 'j', line: 'one' } });
    last().deliver({ type: 'response', id: 999, ok: true, result: 1 });
    off();
    last().deliver({ type: 'event', event: 'job.log', payload: { jobId: 'j', line: 'two' } });
    expect(seen).toEqual(['one']);
  });

  it('times a request out', async () => {
    const { client, last } = setup({ requestTimeoutMs: 500 });
    last().open();
    const p = client.invoke('jobs.list', {}).catch((e: ApiError) => e.payload.code);
    await vi.advanceTimersByTimeAsync(501);
    await expect(p).resolves.toBe('TIMEOUT');
  });

  it('fails requests on a dropped socket, reconnects with backoff and sends queued ones on the new socket', async () => {
    const { client, sockets, last } = setup();
    const statuses: string[] = [];
    client.onStatus((s) => statuses.push(s));
    last().open();
    const inFlight = client.invoke('jobs.list', {}).catch((e: ApiError) => e.payload.code);
    last().drop();
    await expect(inFlight).resolves.toBe('DISCONNECTED');
    const queued = client.invoke('workspace.info', {});
    await vi.advanceTimersByTimeAsync(99);
    expect(sockets).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets).toHaveLength(2);
    last().drop(); // the first retry fails too: the next waits the longer delay
    await vi.advanceTimersByTimeAsync(999);
    expect(sockets).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    last().open();
    const req = last().requests()[0];
    expect(req?.method).toBe('workspace.info');
    last().deliver({ type: 'response', id: req?.id, ok: true, result: 'ok' });
    await expect(queued).resolves.toBe('ok');
    expect(statuses).toEqual(['open', 'closed', 'connecting', 'closed', 'connecting', 'open']);
  });

  it('stops for good on dispose', async () => {
    const { client, sockets, last } = setup();
    last().open();
    client.dispose();
    await vi.advanceTimersByTimeAsync(5000);
    expect(sockets).toHaveLength(1);
    await expect(client.invoke('jobs.list', {})).rejects.toBeInstanceOf(ApiError);
  });
});

describe('wsUrl', () => {
  it('targets /ws on the page origin with the page token', () => {
    expect(wsUrl({ protocol: 'http:', host: '127.0.0.1:4123', search: '?token=a%2Bb&x=1' })).toBe('ws://127.0.0.1:4123/ws?token=a%2Bb');
    expect(wsUrl({ protocol: 'https:', host: 'h', search: '' })).toBe('wss://h/ws');
  });
});
