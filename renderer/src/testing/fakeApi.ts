// An in-memory AssayApi for store tests: scripted handlers per method, recorded calls, events emitted on demand.
import type { AssayApi, EventName, Events, Method, Params, Result } from '../../../shared/contract/index.js';
import { ApiError } from '../api/errors.js';

export type Handlers = { [M in Method]?: (params: Params<M>) => Result<M> | Promise<Result<M>> };

export interface FakeApi {
  api: AssayApi;
  calls: { method: Method; params: unknown }[];
  /** Calls of one method, their params in order. */
  callsOf<M extends Method>(method: M): Params<M>[];
  handle<M extends Method>(method: M, fn: (params: Params<M>) => Result<M> | Promise<Result<M>>): void;
  emit<E extends EventName>(event: E, payload: Events[E]): void;
}

export function createFakeApi(initial: Handlers = {}): FakeApi {
  const handlers: Handlers = { ...initial };
  const listeners = new Map<string, Set<(p: unknown) => void>>();
  const calls: FakeApi['calls'] = [];
  const api: AssayApi = {
    async invoke<M extends Method>(method: M, params: Params<M>): Promise<Result<M>> {
      calls.push({ method, params });
      const h = handlers[method] as ((p: Params<M>) => Result<M> | Promise<Result<M>>) | undefined;
      if (!h) throw new ApiError({ code: 'NOT_FOUND', message: `fake api: no handler for ${method}` });
      return h(params);
    },
    on<E extends EventName>(event: E, listener: (payload: Events[E]) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const l = listener as (p: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
  return {
    api,
    calls,
    callsOf: <M extends Method>(method: M) => calls.filter((c) => c.method === method).map((c) => c.params as Params<M>),
    handle(method, fn) {
      (handlers as Record<string, unknown>)[method] = fn;
    },
    emit(event, payload) {
      for (const l of listeners.get(event) ?? []) l(payload);
    },
  };
}

/** Resolves once every queued microtask and promise continuation has run (store actions chain several). */
export async function settle(rounds = 10): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}
