// The contract over WebSocket: JSON text frames carry request envelopes to the host and its responses and events back to each page.
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { requestEnvelope, type ErrorPayload, type HostMessage } from '../shared/contract/index.js';
import type { HostApi } from '../workers/host/client.js';
import { jsonTooDeep, MAX_DEPTH, MAX_MESSAGE_BYTES, sniffId } from './message-bounds.js';

/** Frames past this are not even buffered: the socket is closed (1009). Between the two limits the request gets a BAD_REQUEST. */
const HARD_FRAME_BYTES = MAX_MESSAGE_BYTES + 1024 * 1024;
/** Requests of one socket at the host at once; the rest wait here, so one busy page cannot queue thousands ahead of another. */
const IN_FLIGHT_PER_SOCKET = 16;
/** Past this many waiting requests the socket stops being read (TCP back-pressure) until they drain. */
const PAUSE_AT = 256;

export interface BridgeOptions {
  log?: (message: string) => void;
}

function send(ws: WebSocket, m: HostMessage): void {
  if (ws.readyState !== ws.OPEN) return;
  let frame: string;
  try {
    frame = JSON.stringify(m);
  } catch (e) {
    // A result that cannot be serialized is that request's failure, never the server's.
    if (m.type !== 'response') return;
    frame = JSON.stringify({ type: 'response', id: m.id, ok: false, error: { code: 'INTERNAL', message: `the answer could not be serialized: ${(e as Error).message}` } });
  }
  ws.send(frame);
}

const failure = (id: number, code: string, message: string): HostMessage => ({ type: 'response', id, ok: false, error: { code, message } satisfies ErrorPayload });

/** One socket's requests: at most IN_FLIGHT_PER_SOCKET at the host, the others queued in arrival order. */
function socketSession(ws: WebSocket, host: HostApi): (id: number, method: string, params: unknown) => void {
  const waiting: [number, string, unknown][] = [];
  let inFlight = 0;
  const pump = (): void => {
    while (inFlight < IN_FLIGHT_PER_SOCKET && waiting.length > 0) {
      const [id, method, params] = waiting.shift() as [number, string, unknown];
      inFlight++;
      let call: Promise<HostMessage>;
      try {
        call = host.call(method, params).then((r) => (r.ok ? { type: 'response', id, ok: true, result: r.result } : { type: 'response', id, ok: false, error: r.error }));
      } catch (e) {
        call = Promise.reject(e as Error);
      }
      void call
        .catch((e: unknown) => failure(id, 'INTERNAL', `the request could not be forwarded: ${e instanceof Error ? e.message : String(e)}`))
        .then((m) => {
          inFlight--;
          send(ws, m);
          pump();
        });
    }
    if (ws.isPaused && waiting.length < PAUSE_AT / 2) ws.resume();
  };
  return (id, method, params) => {
    waiting.push([id, method, params]);
    if (waiting.length >= PAUSE_AT && !ws.isPaused) ws.pause();
    pump();
  };
}

function onFrame(ws: WebSocket, data: RawData, isBinary: boolean, forward: (id: number, method: string, params: unknown) => void): void {
  if (isBinary) return void ws.close(1003, 'frames are JSON text');
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  const refuse = (text: string, why: string): void => {
    const id = sniffId(text);
    if (id !== undefined) send(ws, failure(id, 'BAD_REQUEST', why));
  };
  if (buf.length > MAX_MESSAGE_BYTES) return refuse(`${buf.subarray(0, 512).toString()}\n${buf.subarray(-512).toString()}`, `the message is larger than ${MAX_MESSAGE_BYTES / 1024 / 1024} MB`);
  const text = buf.toString();
  if (jsonTooDeep(text)) return refuse(text, `the message nests deeper than ${MAX_DEPTH} levels`);
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return void ws.close(1007, 'frames are JSON text');
  }
  const env = requestEnvelope.safeParse(message);
  if (!env.success) {
    const id = (message as { id?: unknown } | null)?.id;
    if (typeof id === 'number' && Number.isInteger(id)) send(ws, failure(id, 'BAD_REQUEST', 'not a request envelope'));
    return;
  }
  forward(env.data.id, env.data.method, env.data.params);
}

/** Every socket's requests go to the one host; request ids stay per socket, events go to every socket. */
export function bridgeSockets(host: HostApi, opts: BridgeOptions = {}): { wss: WebSocketServer; close: () => void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: HARD_FRAME_BYTES });
  wss.on('error', (e) => opts.log?.(`websocket server error: ${e.message}`));
  const offEvents = host.onEvent((e) => {
    let frame: string;
    try {
      frame = JSON.stringify(e);
    } catch (err) {
      return opts.log?.(`dropped a '${e.event}' event that cannot be serialized: ${(err as Error).message}`);
    }
    for (const ws of wss.clients) if (ws.readyState === ws.OPEN) ws.send(frame);
  });
  wss.on('connection', (ws) => {
    // A frame over the limit, invalid UTF-8, a reserved bit, an unmasked frame: ws reports it here and
    // closes the connection. Without this listener the 'error' event would end the whole process.
    ws.on('error', (e) => {
      opts.log?.(`closed a websocket: ${e.message}`);
      ws.terminate();
    });
    const forward = socketSession(ws, host);
    ws.on('message', (data, isBinary) => {
      try {
        onFrame(ws, data, isBinary, forward);
      } catch (e) {
        opts.log?.(`closed a websocket after an unexpected error: ${(e as Error).message}`);
        ws.terminate();
      }
    });
  });
  return {
    wss,
    close: () => {
      offEvents();
      for (const ws of wss.clients) ws.terminate();
      wss.close();
    },
  };
}
