// The full-text search index: a contentless FTS5 table in ROOT/.assay/search.sqlite beside the attribute index (texts stay in the documents files).
import { join } from 'node:path';
import { openDatabase, type DB } from '../store/db.js';

/** Bumped when the search tables change; another version is rebuilt from scratch. */
export const SEARCH_SCHEMA_VERSION = 1;

/**
 * unicode61 folds case and (2) strips Latin diacritics, so `cafe` finds `Café`. The same tokenizer
 * serves the highlighting table (views/search-matches.ts), so matches are found exactly as the index
 * finds documents.
 */
export const TOKENIZE = "unicode61 remove_diacritics 2";

/** Rowids pack the documents file and the line: `sid · 2^32 + ord` (both well inside 2^53). */
export const ROW_BASE = 2 ** 32;

export const searchPath = (root: string): string => join(root, '.assay', 'search.sqlite');

const TABLES = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sfiles(sid INTEGER PRIMARY KEY, path TEXT NOT NULL UNIQUE, hash TEXT NOT NULL, docs INTEGER NOT NULL, problem TEXT);
CREATE VIRTUAL TABLE fts USING fts5(text, content='', contentless_delete=1, tokenize='${TOKENIZE}');
`;

export function searchVersion(db: DB): number {
  const meta = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get();
  if (meta === undefined) return db.prepare("SELECT 1 FROM sqlite_master").get() === undefined ? 0 : -1;
  const row = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get() as string | undefined;
  return row === undefined ? -1 : Number(row);
}

/** Opens (creating) the search database for writing, rebuilt empty when it is not the current schema. */
export function openSearchForWrite(root: string, log?: (line: string) => void): DB {
  const db = openDatabase(searchPath(root), { create: true });
  const v = searchVersion(db);
  if (v !== SEARCH_SCHEMA_VERSION) {
    if (v !== 0) log?.(`the search index at ${searchPath(root)} has another layout (version ${v}); rebuilding it`);
    db.exec('BEGIN IMMEDIATE');
    for (const t of db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT GLOB 'sqlite_*' AND name NOT GLOB 'fts_*'").pluck().all() as string[]) {
      db.exec(`DROP TABLE IF EXISTS "${t.replaceAll('"', '""')}"`);
    }
    db.exec(TABLES);
    db.prepare("INSERT INTO meta(key, value) VALUES ('schema_version', ?)").run(String(SEARCH_SCHEMA_VERSION));
    db.exec('COMMIT');
  }
  return db;
}
