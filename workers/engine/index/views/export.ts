// Writes every row a document query selects to CSV (RFC 4180) or JSONL, streamed in chunks to a temporary file renamed into place.
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssayError } from '../../errors.js';
import type { EngineState, StreamAnalysis } from '../preview/analyze.js';
import type { Bitset } from '../preview/bitset.js';
import type { DB } from '../store/db.js';
import { idsOf } from './ids.js';
import { rowReason } from './reasons.js';
import { fateOf, keyColumn, selectDocuments, valueOf, type SelectQuery } from './select.js';

export type ExportFormat = 'csv' | 'jsonl';

/** Rows per round (ids looked up, text built, written): bounded memory however many rows are selected. */
const CHUNK = 4096;

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, quotes doubled; records end with CRLF. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'string' ? v : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function exportDocuments(db: DB, st: EngineState, streams: readonly StreamAnalysis[] | null, q: SelectQuery, format: ExportFormat, path: string, search?: (q: string) => Bitset): { rows: number; bytes: number } {
  const data = st.data;
  const sel = selectDocuments(db, st, streams, q, search);
  const columns = q.columns ?? [];
  const cols = columns.map((c) => keyColumn(data, c));
  const withFate = streams !== null;
  const head = ['id', 'source', 'file', 'line', ...(withFate ? ['fate', 'dropped_by', 'reason'] : []), ...columns];
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  // 'wx': a planted file (or symlink) at the temporary name is never written through.
  const fd = openSync(tmp, 'wx');
  let bytes = 0;
  const put = (text: string): void => {
    const b = Buffer.from(text);
    for (let at = 0; at < b.length; ) at += writeSync(fd, b, at);
    bytes += b.length;
  };
  try {
    if (format === 'csv') put(`${head.map(csvField).join(',')}\r\n`);
    for (let offset = 0; offset < sel.total; offset += CHUNK) {
      const gs = sel.slice(offset, CHUNK);
      const ids = idsOf(db, data, gs);
      let out = '';
      gs.forEach((g, i) => {
        const f = data.fileOf(g);
        const fate = withFate ? fateOf(streams, g) : {};
        const a = fate.droppedBy !== undefined ? streams?.find((x) => x.scope.docs.has(g)) : undefined;
        const reason = a !== undefined && fate.droppedBy !== undefined ? rowReason(a, fate.droppedBy, st, g) : undefined;
        const values = cols.map((c) => (c ? valueOf(c, g) : null));
        const base = { id: ids[i] as string, source: data.sourceNames[data.source[g] as number] ?? '', file: f.path, line: st.data.ordOf(f, g) + 1 };
        if (format === 'csv') {
          const fields: unknown[] = [base.id, base.source, base.file, base.line, ...(withFate ? [fate.fate, fate.droppedBy, reason] : []), ...values];
          out += `${fields.map(csvField).join(',')}\r\n`;
        } else {
          const row: Record<string, unknown> = { ...base };
          if (withFate) Object.assign(row, { fate: fate.fate, ...(fate.droppedBy !== undefined ? { droppedBy: fate.droppedBy } : {}), ...(reason !== undefined ? { reason } : {}) });
          if (columns.length > 0) row.values = Object.fromEntries(columns.map((c, k) => [c, values[k] ?? null]));
          out += `${JSON.stringify(row)}\n`;
        }
      });
      put(out);
    }
    closeSync(fd);
    renameSync(tmp, path);
    return { rows: sel.total, bytes };
  } catch (e) {
    try {
      closeSync(fd);
    } catch {
      /* already closed */
    }
    rmSync(tmp, { force: true });
    throw e instanceof AssayError ? e : new AssayError('IO', `cannot write the export: ${(e as Error).message}`, { file: path, cause: e });
  }
}
