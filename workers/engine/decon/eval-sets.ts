// Eval sets from local files (JSONL, JSON, CSV, Parquet): each row's chosen fields joined into the text whose n-grams are indexed.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { AssayError } from '../errors.js';
import { parseDocumentLine, readLineBatches } from '../io/index.js';
import { parseCsv } from '../ledger/tokens.js';

export interface EvalSetConfig {
  name: string;
  path: string;
  /** Fields whose values (a string, or an array of strings like `choices`) are joined with a space. */
  fields: string[];
  /** Field holding the item id; the 0-based row number when absent. */
  idField?: string;
}

export interface EvalItem {
  id: string;
  text: string;
}

export interface LoadedEvalSet {
  config: EvalSetConfig;
  sha256: string;
  items: EvalItem[];
}

/** A row as read, with where it was (`line` for JSONL, the 0-based `row` for the others). */
interface Row {
  record: Record<string, unknown>;
  row: number;
  line?: number;
}

export async function loadEvalSet(cfg: EvalSetConfig): Promise<LoadedEvalSet> {
  const bytes = await readFile(cfg.path).catch((e: Error) => {
    throw new AssayError('IO', `cannot read eval set '${cfg.name}': ${e.message}`, { file: cfg.path });
  });
  const items = (await readRows(cfg.path, bytes)).map((r) => toItem(cfg, r));
  if (items.length === 0) throw new AssayError('CONFIG', `eval set '${cfg.name}' is empty: no items to decontaminate against`, { file: cfg.path });
  return { config: cfg, sha256: createHash('sha256').update(bytes).digest('hex'), items };
}

async function readRows(path: string, bytes: Buffer): Promise<Row[]> {
  const lower = path.toLowerCase();
  if (/\.parquet$/.test(lower)) {
    const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(path), compressors })) as Record<string, unknown>[];
    return rows.map((record, row) => ({ record, row }));
  }
  if (/\.csv$/.test(lower)) {
    const [header, ...body] = parseCsv(text(bytes)).filter((r) => !(r.length === 1 && r[0] === ''));
    if (!header) return [];
    return body.map((cells, row) => ({ record: Object.fromEntries(header.map((h, k) => [h, cells[k]])), row }));
  }
  if (/\.json$/.test(lower)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text(bytes));
    } catch (e) {
      throw new AssayError('PARSE', `not valid JSON: ${(e as Error).message}`, { file: path });
    }
    const data = Array.isArray(parsed) ? parsed : (parsed as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw new AssayError('PARSE', 'a JSON eval set must be an array of objects or {"data": [...]}', { file: path });
    return data.map((record, row) => ({ record: isObject(record) ? record : {}, row }));
  }
  const rows: Row[] = [];
  for await (const batch of readLineBatches(path, {})) {
    batch.lines.forEach((line, k) => {
      if (line.trim() !== '') rows.push({ record: parseDocumentLine(line, path, batch.firstLine + k), row: rows.length, line: batch.firstLine + k });
    });
  }
  return rows;
}

/** UTF-8 without a leading byte-order mark (spreadsheet exports often start with one). */
const text = (b: Buffer): string => b.toString('utf8').replace(/^\uFEFF/, '');

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A scalar as text; an array of scalars joined with a space; anything else is not usable. */
function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (Array.isArray(v) && v.every((x) => ['string', 'number', 'boolean', 'bigint'].includes(typeof x))) return v.map(String).join(' ');
  return null;
}

function toItem(cfg: EvalSetConfig, r: Row): EvalItem {
  const texts = cfg.fields.map((f) => asText(r.record[f]));
  const missing = cfg.fields.filter((_f, k) => texts[k] === null);
  const idRaw = cfg.idField === undefined ? String(r.row) : asText(r.record[cfg.idField]);
  if (cfg.idField !== undefined && idRaw === null) missing.push(cfg.idField);
  if (missing.length > 0) {
    const where = r.line === undefined ? `row ${r.row} (0-based): ` : '';
    const has = Object.keys(r.record);
    throw new AssayError('CONFIG', `${where}eval set '${cfg.name}' item lacks ${missing.map((f) => `'${f}'`).join(', ')} (or it is not text); the item has fields: ${has.length ? has.join(', ') : '(none)'}`, {
      file: cfg.path,
      line: r.line,
      field: missing[0],
    });
  }
  return { id: idRaw as string, text: texts.join(' ') };
}
