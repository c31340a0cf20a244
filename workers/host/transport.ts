// Transports carry contract envelopes between the app side and the engine host: the interface and the in-memory pair used by tests.
import type { HostMessage, RequestEnvelope } from '../../shared/contract/index.js';

/** One end of a message channel carrying structured-cloneable plain objects. */
export interface Endpoint<In, Out> {
  send(message: Out): void;
  /** Registers a receiver; returns its unsubscribe function. */
  onMessage(listener: (message: In) => void): () => void;
  close(): void;
}

/** The host's end: what arrives is untrusted until validated, what leaves is a response or an event. */
export type HostEndpoint = Endpoint<unknown, HostMessage>;
/** The app's end (Electron main, the browser-mode server, tests). */
export type ClientEndpoint = Endpoint<HostMessage, RequestEnvelope>;

/** A listener set, so every transport fans messages out the same way. */
export class Listeners<T> {
  readonly #set = new Set<(m: T) => void>();
  add(listener: (m: T) => void): () => void {
    this.#set.add(listener);
    return () => void this.#set.delete(listener);
  }
  emit(message: T): void {
    for (const l of [...this.#set]) l(message);
  }
  clear(): void {
    this.#set.clear();
  }
}

/**
 * Two linked endpoints in one process. Delivery is asynchronous and every message is structured-cloned,
 * so tests see the same aliasing and serialisation rules as a real process boundary.
 */
export function memoryPair(): { client: ClientEndpoint; host: HostEndpoint } {
  const toHost = new Listeners<unknown>();
  const toClient = new Listeners<HostMessage>();
  let open = true;
  const deliver = <T>(target: Listeners<T>, message: T): void => {
    if (!open) return;
    const copy = structuredClone(message);
    queueMicrotask(() => open && target.emit(copy));
  };
  const close = (): void => {
    open = false;
    toHost.clear();
    toClient.clear();
  };
  return {
    client: { send: (m) => deliver(toHost, m), onMessage: (l) => toClient.add(l), close },
    host: { send: (m) => deliver(toClient, m), onMessage: (l) => toHost.add(l), close },
  };
}
