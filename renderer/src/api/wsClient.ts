// The contract over a WebSocket (browser mode): request/response envelopes as JSON text frames, events, reconnect, timeouts.
import type { AssayApi, EventName, Events, Method, Params, Result } from '../../../shared/contract/index.js';
import { ApiError, toErrorPayload } from './errors.js';

/** The part of the DOM WebSocket the client uses, so tests can hand it a fake. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
}

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface WsClientOptions {
  url: string;
  createSocket: (url: string) => SocketLike;
  /** A request without an answer after this long fails with code TIMEOUT. */
  requestTimeoutMs?: number;
  /** Delays before successive reconnect attempts; the last one repeats. */
  reconnectDelaysMs?: number[];
}

interface Pending {
  frame: string;
  sent: boolean;
  resolve: (v: unknown) => void;
  reject: (e: ApiError) => void;
  timer: ReturnType<typeof setTimeout>;
}

const OPEN = 1; // WebSocket.OPEN, spelt out so the module runs where no DOM WebSocket exists (unit tests)

export class WsClient implements AssayApi {
  readonly #opts: Required<WsClientOptions>;
  #socket: SocketLike | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<string, Set<(payload: unknown) => void>>();
  readonly #statusListeners = new Set<(s: ConnectionStatus) => void>();
  #status: ConnectionStatus = 'connecting';
  #attempt = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  #disposed = false;

  constructor(opts: WsClientOptions) {
    this.#opts = { requestTimeoutMs: 120_000, reconnectDelaysMs: [250, 500, 1000, 2000, 5000], ...opts };
    this.#connect();
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  invoke<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    if (this.#disposed) return Promise.reject(new ApiError({ code: 'DISCONNECTED', message: 'the connection was closed' }));
    const id = this.#nextId++;
    const frame = JSON.stringify({ type: 'request', id, method, params });
    return new Promise<Result<M>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new ApiError({ code: 'TIMEOUT', message: `${method}: no answer from the engine host after ${this.#opts.requestTimeoutMs / 1000} s` }));
      }, this.#opts.requestTimeoutMs);
      this.#pending.set(id, { frame, sent: false, resolve: resolve as (v: unknown) => void, reject, timer });
      this.#flush();
    });
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) this.#listeners.set(event, (set = new Set()));
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  }

  onStatus(listener: (s: ConnectionStatus) => void): () => void {
    this.#statusListeners.add(listener);
    return () => this.#statusListeners.delete(listener);
  }

  /** Closes for good: pending requests fail, no reconnect. */
  dispose(): void {
    this.#disposed = true;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#socket?.close();
    this.#failPending(() => true, 'the connection was closed');
    this.#setStatus('closed');
  }

  #connect(): void {
    this.#setStatus('connecting');
    const socket = this.#opts.createSocket(this.#opts.url);
    this.#socket = socket;
    socket.onopen = () => {
      this.#attempt = 0;
      this.#setStatus('open');
      this.#flush();
    };
    socket.onmessage = (ev) => this.#receive(ev.data);
    socket.onerror = () => undefined; // a close always follows; reconnect is handled there
    socket.onclose = () => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      // A request already on the wire died with the socket: the new connection cannot answer it.
      this.#failPending((p) => p.sent, 'the connection to the engine host dropped');
      if (this.#disposed) return;
      this.#setStatus('closed');
      const delays = this.#opts.reconnectDelaysMs;
      const delay = delays[Math.min(this.#attempt, delays.length - 1)] ?? 1000;
      this.#attempt++;
      this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
    };
  }

  #flush(): void {
    const socket = this.#socket;
    if (!socket || socket.readyState !== OPEN) return;
    for (const p of this.#pending.values()) {
      if (p.sent) continue;
      p.sent = true;
      socket.send(p.frame);
    }
  }

  #receive(data: unknown): void {
    let msg: unknown;
    try {
      msg = JSON.parse(String(data));
    } catch {
      return; // not ours to answer; the host only sends JSON
    }
    if (typeof msg !== 'object' || msg === null) return;
    const m = msg as Record<string, unknown>;
    if (m.type === 'response' && typeof m.id === 'number') {
      const p = this.#pending.get(m.id);
      if (!p) return;
      this.#pending.delete(m.id);
      clearTimeout(p.timer);
      if (m.ok === true) p.resolve(m.result);
      else p.reject(new ApiError(toErrorPayload(m.error ?? 'request failed')));
    } else if (m.type === 'event' && typeof m.event === 'string') {
      for (const l of this.#listeners.get(m.event) ?? []) l(m.payload);
    }
  }

  #failPending(which: (p: Pending) => boolean, message: string): void {
    for (const [id, p] of this.#pending) {
      if (!which(p)) continue;
      this.#pending.delete(id);
      clearTimeout(p.timer);
      p.reject(new ApiError({ code: 'DISCONNECTED', message }));
    }
  }

  #setStatus(s: ConnectionStatus): void {
    if (s === this.#status) return;
    this.#status = s;
    for (const l of this.#statusListeners) l(s);
  }
}

/**
 * The browser-mode endpoint: the page's own origin, `/ws`, carrying the page URL's `token`. Without one
 * (a link shared without it) the server's session cookie is the only credential, so none is sent.
 */
export function wsUrl(location: { protocol: string; host: string; search: string }): string {
  const token = new URLSearchParams(location.search).get('token');
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${location.host}/ws${token ? `?token=${encodeURIComponent(token)}` : ''}`;
}
