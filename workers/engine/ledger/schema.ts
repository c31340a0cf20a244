// The removal ledger's format (`<output>/.assay/ledger.sqlite`, schema assay.ledger v1): tables, places, opening with checks.
import { createRequire } from 'node:module';
import { rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { AssayError } from '../errors.js';

export type LedgerDB = BetterSqlite3.Database;
export const LEDGER_SCHEMA = 'assay.ledger';
/** 2: docs rows carry `bytes` and `copies` (sampling and repeats). */
export const LEDGER_VERSION = 2;
export type LedgerKind = 'mix' | 'tokens';

/** A mix output folder's ledger, or a tokens destination's. */
export const ledgerPathFor = (folder: string): string => join(folder, '.assay', 'ledger.sqlite');

/**
 * Why SQLite: one file per run that is queried by id, url and text hash without reading it whole (indexes),
 * appended to by many shard processes through per-shard parts merged at the end, and readable by any tool.
 * Paths are stored once (`files`); a document row holds ids, hashes and small integers (~100 bytes + indexes).
 * `fate`: -1 kept, -3 removed by `assay remove`, else the index into the stream's reasons (0 = no include rule
 * matched, 1 + j = exclude[j], then min_text_length, then sample), the mixer's own numbering (mix/compile.ts); the
 * `rules` table names each (`key`: include, exclude[j], min_text_length, sample).
 * `bytes`: UTF-8 bytes of the input text; `copies`: lines written for it (`assay.repeat`; 0 unless kept), from `out_line` on.
 * `sha_key`: the first 6 bytes of the text's sha256 as an integer, so the hash index stays small.
 */
const MIX_TABLES = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS streams(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rules(stream INTEGER NOT NULL, reason INTEGER NOT NULL, key TEXT NOT NULL, text TEXT NOT NULL, PRIMARY KEY(stream, reason));
CREATE TABLE IF NOT EXISTS docs(
  doc_id TEXT NOT NULL, source TEXT NOT NULL, url TEXT, sha256 BLOB NOT NULL, sha_key INTEGER NOT NULL,
  stream INTEGER NOT NULL, file INTEGER NOT NULL, line INTEGER NOT NULL, fate INTEGER NOT NULL,
  replaced INTEGER NOT NULL, shard INTEGER, out_line INTEGER, bytes INTEGER NOT NULL, copies INTEGER NOT NULL);
`;
export const MIX_INDEXES = `
CREATE INDEX IF NOT EXISTS docs_id ON docs(doc_id);
CREATE INDEX IF NOT EXISTS docs_url ON docs(url) WHERE url IS NOT NULL;
CREATE INDEX IF NOT EXISTS docs_sha ON docs(sha_key);
`;
/** A tokens run: each document it wrote, by the file and line it was read from (`src`, `loc` of the metadata CSV). */
const TOKENS_TABLES = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files(id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS tokens(src INTEGER NOT NULL, loc INTEGER NOT NULL, doc_id TEXT NOT NULL, npy INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL);
`;
export const TOKENS_INDEXES = 'CREATE INDEX IF NOT EXISTS tokens_src ON tokens(src, loc);';

export const KEPT = -1;
export const REMOVED = -3;

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

/**
 * Ledgers are written under temporary names and renamed when complete, so they need no journal on disk: the
 * rollback journal stays in memory. (journal_mode = OFF would be the same, but better-sqlite3's defensive mode
 * refuses it and SQLite then keeps DELETE: a journal file created and removed for every transaction.)
 */
const noJournalFile = (db: LedgerDB): void => {
  db.pragma('journal_mode = MEMORY');
};

/** A new ledger at `path` (a temporary name: the caller renames it when complete). */
export function createLedger(path: string, kind: LedgerKind): LedgerDB {
  const db = new Database(path);
  noJournalFile(db);
  db.pragma('synchronous = OFF');
  db.exec(kind === 'mix' ? MIX_TABLES : TOKENS_TABLES);
  stampLedger(db, kind);
  return db;
}

/** The meta rows that make a database an Assay ledger of `kind` (openLedger checks them). */
function stampLedger(db: LedgerDB, kind: LedgerKind): void {
  const meta = db.prepare('INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)');
  meta.run('schema', LEDGER_SCHEMA);
  meta.run('version', String(LEDGER_VERSION));
  meta.run('kind', kind);
}

/**
 * Writes a new ledger at `path` through `fill`, under a temporary name renamed when complete: a crash leaves the
 * previous ledger or none, never half of one.
 */
export async function writeLedgerFile(path: string, kind: LedgerKind, fill: (db: LedgerDB) => void | Promise<void>): Promise<string> {
  const tmp = `${path}.tmp`;
  await rm(tmp, { force: true });
  const db = createLedger(tmp, kind);
  try {
    await fill(db);
    db.close();
  } catch (e) {
    db.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, path);
  return path;
}

/**
 * writeLedgerFile for a mix ledger that starts as the run's first shard part (which has the ledger's tables): the
 * part is renamed to the temporary name, so its rows are not copied. The part is used up either way, so only a run
 * that would redo its shards after a failure may hand one over (not a Slurm run's final step).
 */
export async function writeLedgerFromPart(path: string, part: string, fill: (db: LedgerDB) => void | Promise<void>): Promise<string> {
  const tmp = `${path}.tmp`;
  await rm(tmp, { force: true });
  await rename(part, tmp);
  let db: LedgerDB | null = null;
  try {
    db = new Database(tmp, { fileMustExist: true });
    noJournalFile(db);
    db.pragma('synchronous = OFF');
    stampLedger(db, 'mix');
    await fill(db);
    db.close();
  } catch (e) {
    db?.close();
    await rm(tmp, { force: true });
    throw e;
  }
  await rename(tmp, path);
  return path;
}

/** A ledger copy to edit in place (assay remove works on a temporary copy, then renames it). */
export function openWritable(path: string): LedgerDB {
  const db = new Database(path, { fileMustExist: true });
  noJournalFile(db);
  return db;
}

/** A shard's part (no meta, no indexes): written by the shard's process, merged by the run. */
export function createPart(path: string): LedgerDB {
  const db = new Database(path);
  noJournalFile(db);
  db.pragma('synchronous = OFF');
  db.exec(MIX_TABLES);
  return db;
}

/** Opens a finished ledger read-only; a missing, truncated or foreign file is an error naming it. */
export async function openLedger(path: string, want?: LedgerKind): Promise<{ db: LedgerDB; kind: LedgerKind }> {
  const st = await stat(path).catch(() => null);
  if (st === null || !st.isFile()) throw new AssayError('IO', 'no ledger here (runs write one unless --no-ledger was given)', { file: path });
  let db: LedgerDB | null = null;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    const meta = new Map(rows.map((r) => [r.key, r.value]));
    if (meta.get('schema') !== LEDGER_SCHEMA) throw new Error(`schema is ${JSON.stringify(meta.get('schema') ?? null)}, not ${LEDGER_SCHEMA}`);
    if (meta.get('version') !== String(LEDGER_VERSION)) throw new Error(`version ${meta.get('version')} is not supported (this Assay reads version ${LEDGER_VERSION})`);
    const kind = meta.get('kind') as LedgerKind;
    if (kind !== 'mix' && kind !== 'tokens') throw new Error(`unknown ledger kind ${JSON.stringify(kind)}`);
    if (want !== undefined && kind !== want) throw new Error(`this is a ${kind} ledger, not a ${want} ledger`);
    // A truncated file opens (SQLite reads lazily): touch every table's pages once.
    db.prepare(`SELECT count(*) FROM ${kind === 'mix' ? 'docs' : 'tokens'}`).get();
    return { db, kind };
  } catch (e) {
    db?.close();
    const why = e instanceof Error ? e.message : String(e);
    throw new AssayError('IO', `not a readable Assay ledger (${why}); rerun the stage to rewrite it`, { file: path, cause: e });
  }
}
