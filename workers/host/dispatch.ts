// Serves the contract on a host endpoint: validates envelopes and params (zod), calls the method's handler, answers or maps the error.
import type { z } from 'zod';
import { methods, requestEnvelope, type ErrorPayload, type EventName, type Events, type Method, type Result, type SlurmRun } from '../../shared/contract/index.js';
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

export interface ServeOptions {
  root?: string;
  log?: (m: string) => void;
  /** Applied to every error text that leaves the host (responses, job errors and log lines): hides interpolated values. */
  redact?: (text: string) => string;
}

const INTERNAL_UNSENDABLE = (what: string, e: unknown): ErrorPayload => ({ code: 'INTERNAL', message: `${what} could not be sent: ${e instanceof Error ? e.message : String(e)}` });

/** The wire form of a thrown value; a value that cannot even be described becomes a plain INTERNAL. */
function payloadOf(e: unknown, root: string | undefined): ErrorPayload {
  try {
    const p = toErrorPayload(e, root);
    return { ...p, code: String(p.code), message: String(p.message) };
  } catch {
    return { code: 'INTERNAL', message: 'the request failed with an error that cannot be described' };
  }
}

function redactPayload(p: ErrorPayload, redact: (t: string) => string): ErrorPayload {
  return { ...p, message: redact(p.message), ...(p.file !== undefined && { file: redact(p.file) }), ...(p.field !== undefined && { field: redact(p.field) }) };
}

/** Results that carry error text of their own: a job check's refusal, lint messages. Everything else a result holds is the user's data. */
function redactResult(method: string, result: unknown, redact: (t: string) => string): unknown {
  if (method === 'jobs.check') {
    const c = result as { ok?: unknown; error?: ErrorPayload };
    return c.ok === false && c.error ? { ...c, error: redactPayload(c.error, redact) } : result;
  }
  if (method === 'preview.lint' && Array.isArray(result)) return result.map((i: { message?: unknown }) => (typeof i.message === 'string' ? { ...i, message: redact(i.message) } : i));
  return result;
}

/** Job events carry error text and log lines from the job process: they are redacted like responses. */
function redactEvent(event: string, payload: unknown, redact: (t: string) => string): unknown {
  const p = payload as { error?: unknown; line?: unknown; slurm?: SlurmRun };
  // A Slurm task's log tail is a job's output like its log lines.
  const slurm = p.slurm && { ...p.slurm, tasks: p.slurm.tasks.map((t) => (t.tail ? { ...t, tail: t.tail.map(redact) } : t)) };
  if (event === 'job.tasks' && slurm) return { ...p, slurm };
  if (event === 'job.state' && (typeof p.error === 'string' || slurm)) return { ...p, ...(typeof p.error === 'string' && { error: redact(p.error) }), ...(slurm && { slurm }) };
  if (event === 'job.log' && typeof p.line === 'string') return { ...p, line: redact(p.line) };
  return payload;
}

/** Attaches the handlers to the endpoint; returns the event emitter and a detach function. */
export function serveHost(endpoint: HostEndpoint, handlers: Handlers, opts: ServeOptions = {}): { emit: EmitEvent; close: () => void } {
  const redact = opts.redact ?? ((t: string) => t);
  const respond = (id: number, method: string, r: { ok: true; result: unknown } | { ok: false; error: ErrorPayload }): void => {
    try {
      endpoint.send(r.ok ? { type: 'response', id, ok: true, result: redactResult(method, r.result, redact) } : { type: 'response', id, ok: false, error: redactPayload(r.error, redact) });
    } catch (e) {
      // The IPC serializer throws on values nested too deep (or not cloneable): that answer becomes an error, the host goes on.
      opts.log?.(`the answer to ${method} could not be sent: ${e instanceof Error ? e.message : String(e)}`);
      try {
        endpoint.send({ type: 'response', id, ok: false, error: INTERNAL_UNSENDABLE(`the answer to ${method}`, e) });
      } catch {
        /* the channel itself is gone */
      }
    }
  };
  const off = endpoint.onMessage((message) => {
    const env = requestEnvelope.safeParse(message);
    if (!env.success) {
      // Without a numeric id there is nobody to answer; such a message is dropped and logged.
      const id = (message as { id?: unknown } | null)?.id;
      if (typeof id === 'number' && Number.isInteger(id)) respond(id, 'envelope', { ok: false, error: payloadOf(badRequest(env.error, 'envelope: '), undefined) });
      else opts.log?.('dropped a message that is not a request envelope');
      return;
    }
    const { id, method, params } = env.data;
    void answer(handlers, method, params).then((r) => {
      if (r.ok) return respond(id, method, r);
      if (!(r.error instanceof HostError) && !(r.error as { code?: unknown } | null)?.code) opts.log?.(redact(`${method} failed: ${r.error instanceof Error ? (r.error.stack ?? r.error.message) : String(r.error)}`));
      respond(id, method, { ok: false, error: payloadOf(r.error, opts.root) });
    });
  });
  return {
    emit: (event, payload) => {
      try {
        endpoint.send({ type: 'event', event, payload: redactEvent(event, payload, redact) });
      } catch (e) {
        opts.log?.(`dropped a '${event}' event that cannot be sent: ${e instanceof Error ? e.message : String(e)}`);
      }
    },
    close: off,
  };
}
