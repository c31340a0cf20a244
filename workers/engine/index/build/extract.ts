// Reads one documents file and its attribute files in lockstep into per-document measures and sparse columns.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { loadXxhash } from '../../dedupe/bloom/hash.js';
import { AssayError } from '../../errors.js';
import { attributePathFor, readLineBatches } from '../../io/index.js';
import { LineCursor } from '../../mix/cursor.js';
import { jsonEqual } from '../../mix/filters/jsonpath/index.js';
import type { Json } from '../../mix/filters/types.js';
import { DOC_DEPTH, SET_DEPTH, tagOf } from '../store/tags.js';
import { ColumnSet, type ColumnData } from './collect.js';
import { measureText } from './text.js';

export interface FileStat {
  size: number;
  mtimeMs: number;
  hash: string;
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

const BATCH = 1024;

export async function fileStat(path: string): Promise<FileStat> {
  const st = await stat(path);
  return { size: st.size, mtimeMs: st.mtimeMs, hash: await hashFile(path) };
}

/** xxhash64 of the raw (compressed) bytes: tells a touched file from a changed one. */
export async function hashFile(path: string): Promise<string> {
  const h = (await loadXxhash()).create64(0n);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) h.update(chunk as Buffer);
  return h.digest().toString(16).padStart(16, '0');
}

const problemOf = (e: unknown): Problem => {
  if (e instanceof AssayError) {
    if (e.code === 'CANCELLED') throw e;
    return { code: e.code, message: e.message, ...(e.line === undefined ? {} : { line: e.line }) };
  }
  throw e;
};

interface SetState {
  name: string;
  path: string;
  cursor: LineCursor;
  columns: ColumnSet;
  problem: Problem | null;
}

export async function extractFile(task: ExtractTask, signal?: AbortSignal): Promise<FileExtract> {
  const abs = join(task.root, task.file);
  const sets: SetState[] = task.sets.map((name) => {
    const path = attributePathFor(abs, name);
    return { name, path, cursor: new LineCursor(path, readLineBatches(path, { signal, batchLines: BATCH })), columns: new ColumnSet(SET_DEPTH), problem: null };
  });
  try {
    const docs = task.docs ? await readDocs(abs, sets, signal) : null;
    if (docs === null) await readSetsOnly(abs, sets, task.ids ?? []);
    const out: SetExtract[] = [];
    for (const s of sets) out.push({ name: s.name, columns: s.columns.columns(), problem: s.problem, stat: await fileStat(s.path) });
    return { file: task.file, docs, sets: out };
  } finally {
    await Promise.all(sets.map((s) => s.cursor.close()));
  }
}

async function readDocs(abs: string, sets: SetState[], signal: AbortSignal | undefined): Promise<DocsExtract> {
  const bytes: number[] = [];
  const chars: number[] = [];
  const trimmed: number[] = [];
  const tokens: number[] = [];
  const textTag: number[] = [];
  const sourceCodes: number[] = [];
  const sources = new Map<string, number>();
  const ids: Json[] = [];
  const columns = new ColumnSet(DOC_DEPTH, ['text', 'id']);
  let problem: Problem | null = null;
  let rawBytes = 0;
  try {
    outer: for await (const batch of readLineBatches(abs, { signal, batchLines: BATCH })) {
      const n = batch.lines.length;
      const attrLines = await Promise.all(sets.map((s) => takeLines(s, n)));
      for (let i = 0; i < n; i++) {
        const line = batch.firstLine + i;
        rawBytes += (batch.bytes[i] ?? 0) + 1;
        const doc = parseDocument(batch.lines[i] as string, abs, line);
        if (typeof doc === 'string') {
          problem = { code: 'PARSE', message: doc, line };
          break outer;
        }
        const ord = ids.length;
        ids.push(doc.id as Json);
        const text = doc.text;
        textTag.push(tagOf(text));
        const m = typeof text === 'string' ? measureText(text) : { bytes: 0, chars: 0, trimmed: 0, tokens: 0 };
        bytes.push(m.bytes);
        chars.push(m.chars);
        trimmed.push(m.trimmed);
        tokens.push(m.tokens);
        const src = typeof doc.source === 'string' ? doc.source : '';
        let code = sources.get(src);
        if (code === undefined) sources.set(src, (code = sources.size));
        sourceCodes.push(code);
        columns.addObject(ord, doc);
        for (let k = 0; k < sets.length; k++) addAttributeLine(sets[k] as SetState, (attrLines[k] as string[])[i], doc.id as Json, abs, line, ord);
      }
    }
  } catch (e) {
    problem = problemOf(e);
  }
  if (problem === null) for (const s of sets) await checkAtEnd(s, abs);
  return {
    count: ids.length,
    bytes: Uint32Array.from(bytes),
    chars: Uint32Array.from(chars),
    trimmed: Uint32Array.from(trimmed),
    tokens: Uint32Array.from(tokens),
    textTag: Uint8Array.from(textTag),
    sourceCodes: Uint32Array.from(sourceCodes),
    sources: [...sources.keys()],
    ids,
    columns: columns.columns(),
    problem,
    stat: await fileStat(abs),
    rawBytes,
  };
}

/** Attribute sets of an unchanged documents file: checked against the ids already indexed. */
async function readSetsOnly(abs: string, sets: SetState[], ids: Json[]): Promise<void> {
  for (let start = 0; start < ids.length; start += BATCH) {
    const n = Math.min(BATCH, ids.length - start);
    const attrLines = await Promise.all(sets.map((s) => takeLines(s, n)));
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < sets.length; k++) addAttributeLine(sets[k] as SetState, (attrLines[k] as string[])[i], ids[start + i] as Json, abs, start + i + 1, start + i);
    }
  }
  for (const s of sets) await checkAtEnd(s, abs);
}

async function takeLines(s: SetState, n: number): Promise<(string | null)[]> {
  if (s.problem !== null) return [];
  try {
    return await s.cursor.take(n);
  } catch (e) {
    s.problem = problemOf(e);
    return [];
  }
}

async function checkAtEnd(s: SetState, abs: string): Promise<void> {
  if (s.problem !== null) return;
  try {
    if (!(await s.cursor.atEnd())) {
      s.problem = { code: 'MISMATCH', message: `${abs}:${s.cursor.taken + 1}: attributes file ${s.path} has more lines than the documents file (which ends at line ${s.cursor.taken})`, line: s.cursor.taken + 1 };
    }
  } catch (e) {
    s.problem = problemOf(e);
  }
}

/** The mixer's document checks (shard.ts parseDocument): a JSON object with an `id`. */
function parseDocument(text: string, file: string, line: number): Record<string, unknown> | string {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    return `${file}:${line}: malformed JSON: ${(e as Error).message}`;
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return `${file}:${line}: a document line must be a JSON object`;
  if (!Object.hasOwn(doc, 'id')) return `${file}:${line}: document has no 'id'`;
  return doc as Record<string, unknown>;
}

/** The mixer's attribute checks (shard.ts mergeAttributes), recording the first failure of the set. */
function addAttributeLine(s: SetState, line: string | null | undefined, id: Json, abs: string, lineNo: number, ord: number): void {
  if (s.problem !== null) return;
  if (line === undefined || line === null) {
    s.problem = { code: 'MISMATCH', message: `${abs}:${lineNo}: attributes file ${s.path} ends after line ${lineNo - 1} but the documents file continues (line ${lineNo})`, line: lineNo };
    return;
  }
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch (e) {
    return fail(s, lineNo, 'PARSE', `malformed JSON in attributes: ${(e as Error).message}`);
  }
  const r = rec as { id?: unknown; attributes?: unknown } | null;
  if (r === null || typeof r !== 'object' || !Object.hasOwn(r, 'id')) return fail(s, lineNo, 'PARSE', "attribute record has no 'id'");
  if (r.id !== id && !jsonEqual(r.id as Json, id)) {
    return fail(s, lineNo, 'MISMATCH', `mismatched ids: documents file ${abs} has id ${JSON.stringify(id)} but attributes file has ${JSON.stringify(r.id)}`);
  }
  if (r.attributes === null || typeof r.attributes !== 'object' || Array.isArray(r.attributes)) return fail(s, lineNo, 'PARSE', "attribute record's 'attributes' is not an object");
  s.columns.addObject(ord, r.attributes as Record<string, unknown>);
}

function fail(s: SetState, lineNo: number, code: string, message: string): void {
  s.problem = { code, message: `${s.path}:${lineNo}: ${message}`, line: lineNo };
}
