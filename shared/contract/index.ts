// The IPC contract: methods, events and the wire envelope, shared by host, main, browser server and renderer.
import { z } from 'zod';
import type { EventName, Events } from './events.js';
import type { Method, Params, Result } from './methods.js';

export * from './compare.js';
export * from './events.js';
export * from './jobs.js';
export * from './methods.js';
export * from './runs.js';
export * from './slurm.js';
export type * from './ledger.js';
export type * from './mixplan.js';
export type * from './run-ledger.js';
export type * from './preview.js';
export type * from './workspace.js';
export type * from './decon.js';
export type * from './sources.js';

/** Wire messages (WebSocket text frames / postMessage payloads). */
export const requestEnvelope = z.object({ type: z.literal('request'), id: z.number().int(), method: z.string(), params: z.unknown() }).strict();
export type RequestEnvelope = z.infer<typeof requestEnvelope>;

export interface ErrorPayload {
  /** AssayError code (CONFIG, IO, PARSE, …) or BAD_REQUEST / FORBIDDEN / NOT_FOUND / INTERNAL, CONFLICT (a file changed since it was read), or CANCELLED (a newer preview superseded this one). */
  code: string;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  field?: string;
}

export type ResponseEnvelope =
  | { type: 'response'; id: number; ok: true; result: unknown }
  | { type: 'response'; id: number; ok: false; error: ErrorPayload };

export interface EventEnvelope {
  type: 'event';
  event: string;
  payload: unknown;
}

export type HostMessage = ResponseEnvelope | EventEnvelope;

/** What the renderer sees: the preload bridge (Electron) and the WebSocket client (browser mode) both implement it. */
export interface AssayApi {
  invoke<M extends Method>(method: M, params: Params<M>): Promise<Result<M>>;
  on<E extends EventName>(event: E, listener: (payload: Events[E]) => void): () => void;
}
