// Picks the transport: the Electron preload bridge when present, otherwise the WebSocket of `assay serve`.
import type { AssayApi } from '../../../shared/contract/index.js';
import { type ConnectionStatus, WsClient, wsUrl } from './wsClient.js';

export type { ConnectionStatus };

/** The api plus its connection status (always `open` for the preload bridge, which main keeps alive). */
export interface Connection {
  api: AssayApi;
  status(): ConnectionStatus;
  onStatus(listener: (s: ConnectionStatus) => void): () => void;
}

export function connect(win: Window = window): Connection {
  const bridge = win.assay;
  if (bridge) return { api: bridge, status: () => 'open', onStatus: () => () => undefined };
  const client = new WsClient({ url: wsUrl(win.location), createSocket: (url) => new WebSocket(url) });
  return { api: client, status: () => client.status, onStatus: (l) => client.onStatus(l) };
}
