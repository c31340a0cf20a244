// Serves the contract on a host endpoint: validates envelopes and params (zod), calls the method's handler, answers or maps the error.
import type { z } from 'zod';
import { methods, requestEnvelope, type EventName, type Events, type Method, type Result } from '../../shared/contract/index.js';
import { HostError, toErrorPayload } from './errors.js';
import type { HostEndpoint } from './transport.js';

export type ParsedParams<M extends Method> = z.output<(typeof methods)[M]['params']>;
export type Handlers = { [M in Method]: (params: ParsedParams<M>) => Promise<Result<M>> | Result<M> };
export type EmitEvent = <E extends EventName>(event: E, payload: Events[E]) => void;

function badRequest(error: z.ZodError, prefix: string): HostError {
  const issue = error.issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  return new HostError('BAD_REQUEST', `${prefix}${field ? `${field}: ` : ''}${issue?.message ?? 'invalid'}`, field);
}

const isMethod = (name: string): name is Method => Object.hasOwn(methods, name);

/** Runs one request through validation and its handler; never throws. */
async function answer(handlers: Handlers, method: string, raw: unknown): Promise<{ ok: true; result: unknown } | { ok: false; error: unknown }> {
  try {
    if (!isMethod(method)) throw new HostError('BAD_REQUEST', `unknown method '${method}'`);
    const parsed = methods[method].params.safeParse(raw);
    if (!parsed.success) throw badRequest(parsed.error, `${method}: `);
    const handler = handlers[method] as (p: unknown) => unknown;
    return { ok: true, result: await handler(parsed.data) };
  } catch (e) {
    return { ok: false, error: e };
  }
}

/** Attaches the handlers to the endpoint; returns the event emitter and a detach function. */
export function serveHost(endpoint: HostEndpoint, handlers: Handlers, opts: { root?: string; log?: (m: string) => void } = {}): { emit: EmitEvent; close: () => void } {
  const off = endpoint.onMessage((message) => {
    const env = requestEnvelope.safeParse(message);
    if (!env.success) {
      // Without a numeric id there is nobody to answer; such a message is dropped and logged.
      const id = (message as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isInteger(id)) {
        endpoint.send({ type: 'response', id, ok: false, error: toErrorPayload(badRequest(env.error, 'envelope: ')) });
      } else opts.log?.('dropped a message that is not a request envelope');
      return;
    }
    const { id, method, params } = env.data;
    void answer(handlers, method, params).then((r) => {
      if (r.ok) endpoint.send({ type: 'response', id, ok: true, result: r.result });
      else {
        if (!(r.error instanceof HostError) && !(r.error as { code?: unknown } | null)?.code) opts.log?.(`${method} failed: ${r.error instanceof Error ? (r.error.stack ?? r.error.message) : String(r.error)}`);
        endpoint.send({ type: 'response', id, ok: false, error: toErrorPayload(r.error, opts.root) });
      }
    });
  });
  return {
    emit: (event, payload) => endpoint.send({ type: 'event', event, payload }),
    close: off,
  };
}
