// Typed engine errors: every failure names what it can (file, 1-based line, config field).

export type AssayErrorCode =
  | 'CONFIG' // invalid recipe / config (field named in `field`)
  | 'IO' // unreadable, truncated or corrupt input file
  | 'PARSE' // a malformed record (bad JSON, invalid UTF-8, missing id)
  | 'MISMATCH' // documents and attributes disagree (ids, line counts)
  | 'FILTER' // a filter or selector failed to compile or evaluate
  | 'CANCELLED'
  | 'INTERNAL';

export interface AssayErrorInfo {
  file?: string;
  line?: number;
  field?: string;
  cause?: unknown;
}

export class AssayError extends Error {
  override readonly name = 'AssayError';
  readonly code: AssayErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string | undefined;
  /** The message without its location prefix. */
  readonly detail: string;

  constructor(code: AssayErrorCode, message: string, info: AssayErrorInfo = {}) {
    super(formatLocation(info) + message, info.cause === undefined ? undefined : { cause: info.cause });
    this.code = code;
    this.detail = message;
    this.file = info.file;
    this.line = info.line;
    this.field = info.field;
  }
}

/** `file:line: ` / `field: ` prefix, so messages read like compiler errors. */
function formatLocation(info: AssayErrorInfo): string {
  if (info.file !== undefined) return info.line !== undefined ? `${info.file}:${info.line}: ` : `${info.file}: `;
  if (info.field !== undefined) return `${info.field}: `;
  return '';
}

export function isAssayError(e: unknown): e is AssayError {
  return e instanceof AssayError;
}
