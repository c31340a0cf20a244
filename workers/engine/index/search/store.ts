// The full-text search index: contentless FTS5 tables in ROOT/.assay/search/ beside the attribute index (texts stay in the documents files).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase, type DB } from '../store/db.js';

/** Bumped when the search tables change; another version is rebuilt from scratch. 2: shards. */
export const SEARCH_SCHEMA_VERSION = 2;

/**
 * Files are spread over this many databases, each written by its own process: FTS5 indexing is the costly
 * part and one SQLite connection writes on one core. Fixed (not the core count), so an index built on one
 * machine is complete on another.
 */
export const SHARDS = 2;

/**
 * unicode61 folds case and (2) strips Latin diacritics, so `cafe` finds `Café`. The same tokenizer
 * serves the highlighting table (views/search-matches.ts), so matches are found exactly as the index
 * finds documents.
 */
export const TOKENIZE = "unicode61 remove_diacritics 2";

/** Rowids pack the documents file and the line: `sid · 2^32 + ord` (both well inside 2^53). */
export const ROW_BASE = 2 ** 32;

/** The folder holding the shards. */
export const searchPath = (root: string): string => join(root, '.assay', 'search');
export const shardPath = (root: string, shard: number): string => join(searchPath(root), `shard-${shard}.sqlite`);

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

/** Opens (creating) one shard for writing, rebuilt empty when it is not the current schema. */
export function openShardForWrite(root: string, shard: number, log?: (line: string) => void): DB {
  mkdirSync(searchPath(root), { recursive: true });
  const db = openDatabase(shardPath(root, shard), { create: true });
  const v = searchVersion(db);
  if (v !== SEARCH_SCHEMA_VERSION) {
    if (v !== 0) log?.(`the search shard ${shardPath(root, shard)} has another layout (version ${v}); rebuilding it`);
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
