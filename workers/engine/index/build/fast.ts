// The fast reader: each file's lines scanned from bytes into columns; null whenever the exact reader must speak instead.
import { join } from 'node:path';
import { attributePathFor } from '../../io/index.js';
import type { Json } from '../../mix/filters/types.js';
import { SET_DEPTH } from '../store/tags.js';
import { FALLBACK } from './bytes.js';
import { ColumnSet } from './collect.js';
import type { DocsExtract, ExtractTask, FileExtract, SetExtract } from './extract.js';
import { forEachLine } from './lines.js';
import { attributeRecord, DocsBuilder, fileStat, parseDocument } from './records.js';
import { LineScanner, type DocCollectors } from './scan.js';

/** Lines the scanner handed to JSON.parse (tests check that the adversarial ones really get there). */
export const scanStats = { lines: 0, parsed: 0 };

/**
 * The same FileExtract as extractExact for a file the mixer reads without complaint, or null for
 * any other (a malformed line, invalid UTF-8, an unreadable or truncated file, attribute files that
 * do not line up): problems keep the exact reader's messages by letting it read the file again.
 * Files are read one after another, not in lockstep: each attribute line is checked against the
 * documents' ids, which are kept anyway.
 */
export async function extractFast(task: ExtractTask, signal?: AbortSignal): Promise<FileExtract | null> {
  const abs = join(task.root, task.file);
  let docs: DocsExtract | null = null;
  if (task.docs) {
    docs = await readDocs(abs, signal);
    if (docs === null) return null;
  }
  const ids = docs?.ids ?? task.ids ?? [];
  const sets: SetExtract[] = [];
  for (const name of task.sets) {
    const s = await readSet(abs, name, ids, signal);
    if (s === null) return null;
    sets.push(s);
  }
  return { file: task.file, docs, sets };
}

async function readDocs(abs: string, signal: AbortSignal | undefined): Promise<DocsExtract | null> {
  const docs = new DocsBuilder();
  const d = docs.collectors();
  const sc = new LineScanner();
  let line = 0;
  let sha256: string | undefined;
  const hash = await forEachLine(abs, (buf, start, end, ascii) => documentLine(docs, d, sc, buf, start, end, ascii, abs, ++line), signal, (s) => (sha256 = s));
  scanStats.lines += line;
  return hash === null ? null : docs.done(null, await fileStat(abs, hash, sha256));
}

/** One documents line into `docs`, scanned or (when the scanner declines) parsed; false when the mixer would refuse it. */
export function documentLine(docs: DocsBuilder, d: DocCollectors, sc: LineScanner, buf: Buffer, start: number, end: number, ascii: boolean, abs: string, line: number): boolean {
  docs.rawBytes += end - start + 1;
  sc.begin(buf, start, end, ascii);
  try {
    sc.doc(d, docs.ids.length);
    docs.add(sc.id, sc.textTag, sc.bytes, sc.chars, sc.trimmed, sc.source);
    return true;
  } catch (e) {
    if (e !== FALLBACK) throw e;
  }
  sc.undo();
  scanStats.parsed++;
  const doc = parseDocument(buf.toString('utf8', start, end), abs, line);
  if (typeof doc === 'string') return false;
  docs.addParsed(doc);
  return true;
}

async function readSet(abs: string, name: string, ids: readonly Json[], signal: AbortSignal | undefined): Promise<SetExtract | null> {
  const path = attributePathFor(abs, name);
  const columns = new ColumnSet(SET_DEPTH, [], ids.length);
  const sc = new LineScanner();
  let ord = 0;
  let sha256: string | undefined;
  const hash = await forEachLine(
    path,
    (buf, start, end, ascii) => ord < ids.length && attributeLine(columns, sc, buf, start, end, ascii, ord, ids[ord++] as Json, abs),
    signal,
    (s) => (sha256 = s),
  );
  scanStats.lines += ord;
  if (hash === null || ord !== ids.length) return null;
  return { name, columns: columns.columns(), problem: null, stat: await fileStat(path, hash, sha256) };
}

/** One attribute line of document `ord` (whose id is `id`) into `columns`; false when the mixer would refuse it. */
export function attributeLine(columns: ColumnSet, sc: LineScanner, buf: Buffer, start: number, end: number, ascii: boolean, ord: number, id: Json, abs: string): boolean {
  sc.begin(buf, start, end, ascii);
  try {
    sc.attributes(columns.root, ord, id);
    return true;
  } catch (e) {
    if (e !== FALLBACK) throw e;
  }
  sc.undo();
  scanStats.parsed++;
  const r = attributeRecord(buf.toString('utf8', start, end), id, abs);
  if (!('attributes' in r)) return false;
  columns.addObject(ord, r.attributes);
  return true;
}
