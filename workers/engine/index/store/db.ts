// The index database: better-sqlite3 in WAL mode, its schema, and the version check.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';

export type DB = BetterSqlite3.Database;

/**
 * Bumped whenever tables or blob layouts change; an index with another version is rebuilt, except
 * for the versions migrateSchema upgrades in place (and readers still open: READABLE_SCHEMAS).
 * 1: files/docs/attr_files/columns with sparse packed columns.
 * 2: + token_counts (exact per-document tokenizer counts, one packed row per documents file).
 * 3: column blobs delta-code their ordinals and keep each span entry's first score only as its num
 *    (`laterScores` instead of `scores`): ≈ 2.4× smaller; docs rows lose line, source, bytes, chars and
 *    tokens, which files.data holds per document already. Readers read both blob layouts and never read
 *    the dropped columns, so 1 and 2 upgrade in place.
 */
export const SCHEMA_VERSION = 3;

/** Versions a reader opens: version 1 only lacks token_counts, which readers treat as "no counts"; 1 and 2 have the older blobs. */
export const READABLE_SCHEMAS: readonly number[] = [1, 2, 3];

/** The index lives inside the dataset, so it moves with it; every stored path is relative to the root. */
export function indexPath(root: string): string {
  return join(root, '.assay', 'index.sqlite');
}

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

export function openDatabase(path: string, opts: { readonly?: boolean; create?: boolean; journal?: 'wal' | 'memory' } = {}): DB {
  const db = new Database(path, { readonly: opts.readonly ?? false, fileMustExist: !(opts.create ?? false) });
  db.pragma('busy_timeout = 10000');
  if (!opts.readonly) {
    // The rollback journal in memory only for a new file no one reads until it is complete (a first build; see buildIndex).
    journal(db, opts.journal ?? 'wal');
    // The index is derived data: a crash loses at most the build in progress, never the dataset.
    db.pragma('synchronous = OFF');
  }
  // Readers hold columns in memory and touch few pages; the builder writes many.
  db.pragma(`cache_size = ${opts.readonly ? -16384 : -131072}`);
  return db;
}

/**
 * Asks for a journal mode. Where it is unavailable (WAL on a file system without shared memory) SQLite keeps
 * another without failing, which costs speed, never correctness.
 */
export function journal(db: DB, mode: 'wal' | 'memory'): void {
  db.pragma(`journal_mode = ${mode.toUpperCase()}`);
}

/**
 * Token counts of a documents file with the tokenizer the meta keys `tokenizer*` name: valid while `hash`
 * equals the file's hash (a changed file keeps a stale row until the next count phase replaces it).
 */
const TOKEN_COUNTS = `
CREATE TABLE IF NOT EXISTS token_counts(
  file INTEGER PRIMARY KEY, hash TEXT NOT NULL, docs INTEGER NOT NULL, tokens INTEGER NOT NULL, data BLOB NOT NULL);
`;

const TABLES = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
  id INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, mtime REAL NOT NULL, hash TEXT NOT NULL,
  docs INTEGER NOT NULL, raw_bytes INTEGER NOT NULL, problem TEXT, data BLOB NOT NULL, sources TEXT NOT NULL);
CREATE TABLE docs(
  file INTEGER NOT NULL, ord INTEGER NOT NULL, id TEXT NOT NULL, id_json INTEGER NOT NULL, PRIMARY KEY(file, ord)) WITHOUT ROWID;
CREATE INDEX docs_id ON docs(id);
CREATE TABLE attr_files(
  set_name TEXT NOT NULL, file INTEGER NOT NULL, path TEXT NOT NULL, size INTEGER NOT NULL, mtime REAL NOT NULL,
  hash TEXT NOT NULL, problem TEXT, PRIMARY KEY(set_name, file));
CREATE TABLE columns(
  set_name TEXT NOT NULL, path TEXT NOT NULL, file INTEGER NOT NULL, present INTEGER NOT NULL,
  data BLOB NOT NULL, dict TEXT NOT NULL, PRIMARY KEY(set_name, path, file)) WITHOUT ROWID;
${TOKEN_COUNTS}`;

/** Version of the schema in `db`, 0 for an empty database, -1 for one that is not an Assay index. */
export function schemaVersionOf(db: DB): number {
  const hasMeta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (hasMeta === undefined) {
    const any = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table'").get();
    return any === undefined ? 0 : -1;
  }
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").get() as { value: string } | undefined;
  return row === undefined ? -1 : Number(row.value);
}

/** Drop whatever is there and create the current schema (inside the caller's transaction). */
export function resetSchema(db: DB): void {
  const objects = db.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%'").all() as { type: string; name: string }[];
  for (const o of objects) if (o.type === 'table') db.exec(`DROP TABLE IF EXISTS "${o.name.replaceAll('"', '""')}"`);
  db.exec(TABLES);
  setMeta(db, 'schema_version', String(SCHEMA_VERSION));
  setMeta(db, 'generation', '0');
}

/**
 * Upgrades an index of an older schema in place when nothing it holds changes meaning (inside the caller's
 * transaction); false when it must be rebuilt instead.
 */
export function migrateSchema(db: DB, from: number): boolean {
  if (from !== 1 && from !== 2) return false;
  db.exec(TOKEN_COUNTS);
  // New rows bind only the columns schema 3 keeps; the old blobs stay (readers read both layouts).
  const has = new Set(db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('docs') as string[]);
  for (const c of ['line', 'source', 'bytes', 'chars', 'tokens']) if (has.has(c)) db.exec(`ALTER TABLE docs DROP COLUMN ${c}`);
  setMeta(db, 'schema_version', String(SCHEMA_VERSION));
  return true;
}

/** Whether the index has the token_counts table (schema 2 on; a reader may hold a version-1 index). */
export function hasTokenCounts(db: DB): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'token_counts'").get() !== undefined;
}

export function setMeta(db: DB, key: string, value: string): void {
  db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

export function getMeta(db: DB, key: string): string | undefined {
  return (db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined)?.value;
}
