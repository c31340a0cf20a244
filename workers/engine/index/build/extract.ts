// Reads one documents file and its attribute files into per-document measures and sparse columns.
import { join } from 'node:path';
import { AssayError } from '../../errors.js';
import { errorText } from '../../io/source.js';
import type { Json } from '../../mix/filters/types.js';
import type { ColumnData } from './collect.js';
import { extractExact } from './exact.js';
import { extractFast } from './fast.js';

export { fileStat, hashFile } from './records.js';

export interface FileStat {
  size: number;
  mtimeMs: number;
  hash: string;
  /** sha256 of the raw bytes, for the index's run manifest. */
  sha256: string;
}

/** Why a file cannot be mixed: the mixer's own error for it (message names file and line). */
export interface Problem {
  code: string;
  message: string;
  line?: number;
}

export interface ExtractTask {
  root: string;
  /** Documents file, relative to the root. */
  file: string;
  /** Re-read the documents themselves (new or changed file); otherwise only `sets`, checked against `ids`. */
  docs: boolean;
  /** The indexed ids of the file, as JSON values (set-only tasks). */
  ids?: Json[];
  sets: string[];
}

export interface DocsExtract {
  count: number;
  bytes: Uint32Array;
  chars: Uint32Array;
  trimmed: Uint32Array;
  tokens: Uint32Array;
  textTag: Uint8Array;
  sourceCodes: Uint32Array;
  sources: string[];
  ids: Json[];
  columns: ColumnData[];
  problem: Problem | null;
  stat: FileStat;
  /** Uncompressed bytes of the documents file. */
  rawBytes: number;
}

export interface SetExtract {
  name: string;
  columns: ColumnData[];
  problem: Problem | null;
  stat: FileStat;
}

export interface FileExtract {
  file: string;
  docs: DocsExtract | null;
  sets: SetExtract[];
}

/**
 * The byte scanner reads what the mixer reads without complaint; anything else (and so every
 * problem message) comes from the exact JSON.parse reader, which also serves as its reference.
 */
export async function extractFile(task: ExtractTask, signal?: AbortSignal): Promise<FileExtract> {
  try {
    return (await extractFast(task, signal)) ?? (await extractExact(task, signal));
  } catch (e) {
    throw readError(e, join(task.root, task.file));
  }
}

/** A file-system error (EACCES, EIO…) as an IO error naming the file it came from (the documents file when it names none). */
export function readError(e: unknown, file: string): unknown {
  if (e instanceof AssayError || !(e instanceof Error) || typeof (e as NodeJS.ErrnoException).code !== 'string') return e;
  return new AssayError('IO', `cannot read: ${errorText(e)}`, { file: (e as NodeJS.ErrnoException).path ?? file, cause: e });
}
