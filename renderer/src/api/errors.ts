// Errors from the host as one typed class, whatever transport (preload bridge or WebSocket) carried them.
import type { ErrorPayload } from '../../../shared/contract/index.js';

export class ApiError extends Error {
  readonly payload: ErrorPayload;

  constructor(payload: ErrorPayload) {
    super(payload.message);
    this.name = 'ApiError';
    this.payload = payload;
  }
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Normalises anything a rejected invoke can carry (ApiError, a plain ErrorPayload, an Error, a string). */
export function toErrorPayload(e: unknown): ErrorPayload {
  if (e instanceof ApiError) return e.payload;
  if (typeof e === 'object' && e !== null) {
    const o = e as Record<string, unknown>;
    const inner = typeof o.payload === 'object' && o.payload !== null ? (o.payload as Record<string, unknown>) : o;
    const payload: ErrorPayload = { code: str(inner.code) ?? 'INTERNAL', message: str(inner.message) ?? String(e) };
    const line = num(inner.line);
    const column = num(inner.column);
    const file = str(inner.file);
    const field = str(inner.field);
    if (line !== undefined) payload.line = line;
    if (column !== undefined) payload.column = column;
    if (file !== undefined) payload.file = file;
    if (field !== undefined) payload.field = field;
    return payload;
  }
  return { code: 'INTERNAL', message: String(e) };
}

/** One line for a status bar: the message, with its location when it has one. */
export function errorText(e: unknown): string {
  const p = toErrorPayload(e);
  const where = p.line !== undefined ? ` (line ${p.line}${p.column !== undefined ? `:${p.column}` : ''})` : '';
  return `${p.message}${where}`;
}
