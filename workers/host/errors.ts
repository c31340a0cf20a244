// Host-level errors (bad request, forbidden path, not found) and the mapping of any thrown value to the wire's ErrorPayload.
import { isAbsolute, relative } from 'node:path';
import type { ErrorPayload } from '../../shared/contract/index.js';
import { isAssayError } from '../engine/errors.js';

export type HostErrorCode = 'BAD_REQUEST' | 'FORBIDDEN' | 'NOT_FOUND' | 'CONFLICT' | 'INTERNAL';

export class HostError extends Error {
  override readonly name = 'HostError';
  constructor(
    readonly code: HostErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** Paths inside the workspace are shown relative to it: the app works in workspace-relative paths. */
function displayPath(file: string, root: string | undefined): string {
  if (root === undefined || !isAbsolute(file)) return file;
  const rel = relative(root, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

export function toErrorPayload(e: unknown, root?: string): ErrorPayload {
  if (e instanceof HostError) return { code: e.code, message: e.message, ...(e.field !== undefined && { field: e.field }) };
  if (isAssayError(e)) {
    const out: ErrorPayload = { code: e.code, message: root === undefined ? e.message : e.message.split(root + '/').join('') };
    if (e.file !== undefined) out.file = displayPath(e.file, root);
    if (e.line !== undefined) out.line = e.line;
    if (e.field !== undefined) out.field = e.field;
    // A RecipeError (engine/mix/config.ts) also knows the column of its first issue.
    const column = (e as { issues?: { column?: number }[] }).issues?.[0]?.column;
    if (column !== undefined) out.column = column;
    return out;
  }
  if (e instanceof Error) return { code: 'INTERNAL', message: e.message };
  return { code: 'INTERNAL', message: String(e) };
}
