// The contract over WebSocket: JSON text frames carry request envelopes to the host and its responses and events back to each page.
import { WebSocketServer, type WebSocket } from 'ws';
import { requestEnvelope, type HostMessage } from '../shared/contract/index.js';
import type { HostApi } from '../workers/host/client.js';

/** A recipe may be up to 4 MB (shared/contract/methods.ts); JSON escaping can double it. */
const MAX_FRAME = 10 * 1024 * 1024;

function reply(ws: WebSocket, m: HostMessage): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
}

/** Every socket's requests go to the one host; request ids stay per socket, events go to every socket. */
export function bridgeSockets(host: HostApi): { wss: WebSocketServer; close: () => void } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME });
  const offEvents = host.onEvent((e) => {
    const frame = JSON.stringify(e);
    for (const ws of wss.clients) if (ws.readyState === ws.OPEN) ws.send(frame);
  });
  wss.on('connection', (ws) => {
    ws.on('message', (data, isBinary) => {
      let message: unknown;
      try {
        if (isBinary) throw new Error('binary frame');
        message = JSON.parse(data.toString());
      } catch {
        ws.close(1007, 'frames are JSON text');
        return;
      }
      const env = requestEnvelope.safeParse(message);
      if (!env.success) {
        const id = (message as { id?: unknown } | null)?.id;
        if (typeof id === 'number' && Number.isInteger(id)) reply(ws, { type: 'response', id, ok: false, error: { code: 'BAD_REQUEST', message: 'not a request envelope' } });
        return;
      }
      const { id, method, params } = env.data;
      void host.call(method, params).then((r) => reply(ws, r.ok ? { type: 'response', id, ok: true, result: r.result } : { type: 'response', id, ok: false, error: r.error }));
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
