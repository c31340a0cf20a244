// The app side of a transport: numbered requests matched to responses, events fanned out; implements the contract's AssayApi.
import type { AssayApi, ErrorPayload, EventEnvelope, EventName, Events, Method, Params, Result } from '../../shared/contract/index.js';
import { Listeners, type ClientEndpoint } from './transport.js';

export type CallOutcome = { ok: true; result: unknown } | { ok: false; error: ErrorPayload };

/** A failed call as the app sees it: the host's ErrorPayload, intact. */
export class HostCallError extends Error {
  override readonly name = 'HostCallError';
  constructor(readonly payload: ErrorPayload) {
    super(payload.message);
  }
}

/** What the server and Electron main hold: typed calls, raw calls to forward, and every event. */
export interface HostApi extends AssayApi {
  call(method: string, params: unknown): Promise<CallOutcome>;
  onEvent(listener: (e: EventEnvelope) => void): () => void;
  close(): Promise<void>;
}

/** Typed invoke/on over any raw `call`/`onEvent` pair, so the client and the supervisor share them. */
export abstract class HostApiBase implements HostApi {
  protected readonly events = new Listeners<EventEnvelope>();
  abstract call(method: string, params: unknown): Promise<CallOutcome>;
  abstract close(): Promise<void>;

  async invoke<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
    const r = await this.call(method, params);
    if (!r.ok) throw new HostCallError(r.error);
    return r.result as Result<M>;
  }

  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void {
    return this.events.add((e) => e.event === event && listener(e.payload as Events[E]));
  }

  onEvent(listener: (e: EventEnvelope) => void): () => void {
    return this.events.add(listener);
  }
}

export class HostClient extends HostApiBase {
  #next = 1;
  readonly #pending = new Map<number, (o: CallOutcome) => void>();
  readonly #off: () => void;
  #closed: ErrorPayload | null = null;

  constructor(private readonly endpoint: ClientEndpoint) {
    super();
    this.#off = endpoint.onMessage((m) => {
      if (m.type === 'event') this.events.emit(m);
      else if (m.type === 'response') {
        const done = this.#pending.get(m.id);
        this.#pending.delete(m.id);
        done?.(m.ok ? { ok: true, result: m.result } : { ok: false, error: m.error });
      }
    });
  }

  call(method: string, params: unknown): Promise<CallOutcome> {
    if (this.#closed) return Promise.resolve({ ok: false, error: this.#closed });
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      try {
        this.endpoint.send({ type: 'request', id, method, params });
      } catch (e) {
        // The transport could not serialize these params (too deep, not cloneable): this request fails, nothing else.
        this.#pending.delete(id);
        resolve({ ok: false, error: { code: 'BAD_REQUEST', message: `${method}: the params cannot be sent to the engine host (${e instanceof Error ? e.message : String(e)})` } });
      }
    });
  }

  /** Ends every call still waiting (the host died) with this error, and refuses new ones. */
  fail(error: ErrorPayload): void {
    this.#closed = error;
    const waiting = [...this.#pending.values()];
    this.#pending.clear();
    for (const done of waiting) done({ ok: false, error });
  }

  async close(): Promise<void> {
    this.fail({ code: 'INTERNAL', message: 'the connection to the engine host is closed' });
    this.#off();
    this.endpoint.close();
  }
}
