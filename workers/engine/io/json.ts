// Reads a JSONL file as batches of parsed JSON objects, locating every malformed line.
import { AssayError } from '../errors.js';
import { readLineBatches, type ReadOptions } from './read.js';

export interface JsonRecord {
  /** 1-based line number in the file. */
  line: number;
  value: Record<string, unknown>;
  /** UTF-8 byte length of the line without its `\n`. */
  bytes: number;
}

export interface JsonReadOptions extends ReadOptions {
  /** A record without an `id` field is a PARSE error (or a skipped line with `onBadLine`). */
  requireId?: boolean;
  /**
   * When given, line-level failures (bad JSON, a non-object, missing id, invalid UTF-8) are
   * reported here and the line is skipped (the CLI's `--skip-bad-lines`); otherwise they throw.
   */
  onBadLine?: (err: AssayError) => void;
}

/**
 * Batches of parsed records in file order (a batch is never empty). Records before a failing line
 * are delivered before the AssayError PARSE naming file and line is thrown.
 */
export async function* readJsonRecords(file: string, opts: JsonReadOptions = {}): AsyncGenerator<JsonRecord[]> {
  const { requireId = false, onBadLine } = opts;
  for await (const batch of readLineBatches(file, opts)) {
    const records: JsonRecord[] = [];
    let failure: AssayError | undefined;
    for (let i = 0; i < batch.lines.length; i++) {
      const line = batch.firstLine + i;
      const problem = parseLine(batch.lines[i] ?? '', requireId);
      if (typeof problem === 'string') {
        const err = new AssayError('PARSE', problem, { file, line });
        if (onBadLine === undefined) {
          failure = err;
          break;
        }
        onBadLine(err);
        continue;
      }
      records.push({ line, value: problem, bytes: batch.bytes[i] ?? 0 });
    }
    if (records.length > 0) yield records;
    if (failure !== undefined) throw failure;
  }
}

/** The parsed object, or a message saying why the line is not a usable record. */
function parseLine(text: string, requireId: boolean): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return text.trim() === '' ? 'empty line (expected a JSON object)' : `invalid JSON: ${(e as Error).message}`;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`;
  }
  const record = value as Record<string, unknown>;
  if (requireId && record['id'] === undefined) return 'record has no "id" field';
  return record;
}

/** One document line as the Dolma stages read it: a JSON object, or an AssayError PARSE naming file and line. */
export function parseDocumentLine(text: string, file: string, line: number): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new AssayError('PARSE', `malformed JSON: ${(e as Error).message}`, { file, line });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new AssayError('PARSE', 'a document line must be a JSON object', { file, line });
  return value as Record<string, unknown>;
}
