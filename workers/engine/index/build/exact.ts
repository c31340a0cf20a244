// The reference reader: a documents file and its attribute files in lockstep through readLineBatches and JSON.parse.
import { join } from 'node:path';
import { AssayError } from '../../errors.js';
import { attributePathFor, readLineBatches } from '../../io/index.js';
import { LineCursor } from '../../mix/cursor.js';
import type { Json } from '../../mix/filters/types.js';
import { SET_DEPTH } from '../store/tags.js';
import { ColumnSet } from './collect.js';
import type { DocsExtract, ExtractTask, FileExtract, Problem, SetExtract } from './extract.js';
import { attributeRecord, DocsBuilder, fileStat, parseDocument } from './records.js';

const BATCH = 1024;

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

/**
 * What the mixer itself sees, problems included (malformed lines, invalid UTF-8, truncated files,
 * mismatched attribute files, each with the mixer's message); the byte scanner defers to it.
 */
export async function extractExact(task: ExtractTask, signal?: AbortSignal): Promise<FileExtract> {
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
  const docs = new DocsBuilder();
  let problem: Problem | null = null;
  try {
    outer: for await (const batch of readLineBatches(abs, { signal, batchLines: BATCH })) {
      const n = batch.lines.length;
      const attrLines = await Promise.all(sets.map((s) => takeLines(s, n)));
      for (let i = 0; i < n; i++) {
        const line = batch.firstLine + i;
        docs.rawBytes += (batch.bytes[i] ?? 0) + 1;
        const doc = parseDocument(batch.lines[i] as string, abs, line);
        if (typeof doc === 'string') {
          problem = { code: 'PARSE', message: doc, line };
          break outer;
        }
        const ord = docs.ids.length;
        docs.addParsed(doc);
        for (let k = 0; k < sets.length; k++) addAttributeLine(sets[k] as SetState, (attrLines[k] as string[])[i], doc.id as Json, abs, line, ord);
      }
    }
  } catch (e) {
    problem = problemOf(e);
  }
  if (problem === null) for (const s of sets) await checkAtEnd(s, abs);
  return docs.done(problem, await fileStat(abs));
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

/** Records the first failure of the set. */
function addAttributeLine(s: SetState, line: string | null | undefined, id: Json, abs: string, lineNo: number, ord: number): void {
  if (s.problem !== null) return;
  if (line === undefined || line === null) {
    s.problem = { code: 'MISMATCH', message: `${abs}:${lineNo}: attributes file ${s.path} ends after line ${lineNo - 1} but the documents file continues (line ${lineNo})`, line: lineNo };
    return;
  }
  const r = attributeRecord(line, id, abs);
  if ('attributes' in r) s.columns.addObject(ord, r.attributes);
  else s.problem = { code: r.code, message: `${s.path}:${lineNo}: ${r.message}`, line: lineNo };
}
