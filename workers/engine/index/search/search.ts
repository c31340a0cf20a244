// Answers searches for the preview engine: documents whose text matches, as a bitset over the index's documents, and matches in one text.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { AssayError } from '../../errors.js';
import { Bitset } from '../preview/bitset.js';
import { Lru } from '../preview/lru.js';
import type { IndexData } from '../store/data.js';
import { openDatabase, type DB } from '../store/db.js';
import { ftsQuery } from './query.js';
import { ROW_BASE, SEARCH_SCHEMA_VERSION, SHARDS, searchPath, searchVersion, shardPath, TOKENIZE } from './store.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

interface Shard {
  db: DB;
  /** sid → first document number of that file in the loaded index. */
  starts: Map<number, number>;
}

export class SearchIndex {
  private shards: Shard[] | null = null;
  private readonly results = new Lru<string, Bitset>(16);
  private highlighter: DB | null = null;

  constructor(
    private readonly root: string,
    private readonly data: IndexData,
    /** path → content hash, as the attribute index recorded them (what the search table must cover). */
    private readonly hashes: () => Map<string, string>,
  ) {}

  /** Opens the shards on first use and checks that together they cover exactly the indexed files. */
  private open(): Shard[] {
    if (this.shards !== null) return this.shards;
    const dir = searchPath(this.root);
    const how = `build it with \`assay index ${this.root}\` (or an index job in the app), which indexes the texts for search after the attributes`;
    const paths = Array.from({ length: SHARDS }, (_, k) => shardPath(this.root, k));
    if (!paths.every((p) => existsSync(p))) throw new AssayError('CONFIG', `this index has no search table (${dir}); ${how}`, { field: 'search' });
    const want = this.hashes();
    const byPath = new Map(this.data.files.map((f) => [f.path, f]));
    const shards: Shard[] = [];
    const covered = new Set<string>();
    try {
      for (const p of paths) {
        const db = openDatabase(p, { readonly: true });
        shards.push({ db, starts: new Map() });
        if (searchVersion(db) !== SEARCH_SCHEMA_VERSION) throw new AssayError('CONFIG', `the search table at ${dir} is from another version of Assay; ${how}`, { field: 'search' });
        for (const r of db.prepare('SELECT sid, path, hash FROM sfiles').all() as { sid: number; path: string; hash: string }[]) {
          const f = byPath.get(r.path);
          if (f === undefined || want.get(r.path) !== r.hash || covered.has(r.path)) continue;
          (shards.at(-1) as Shard).starts.set(r.sid, f.start);
          covered.add(r.path);
        }
      }
      if (covered.size < this.data.files.length) {
        throw new AssayError('CONFIG', `the search table covers ${covered.size} of the ${this.data.files.length} indexed files (the texts are still being indexed, or changed since); ${how}`, { field: 'search' });
      }
    } catch (e) {
      for (const sh of shards) sh.db.close();
      throw e;
    }
    this.shards = shards;
    return shards;
  }

  /** Documents whose text has every term of `q` (cached per query for this snapshot). */
  match(q: string): Bitset {
    const expr = ftsQuery(q);
    return this.results.getOr(expr, () => {
      const out = new Bitset(this.data.n);
      for (const { db, starts } of this.open()) {
        for (const rowid of db.prepare('SELECT rowid FROM fts WHERE fts MATCH ?').pluck().iterate(expr) as IterableIterator<number>) {
          const start = starts.get(Math.floor(rowid / ROW_BASE));
          if (start !== undefined) out.set(start + (rowid % ROW_BASE));
        }
      }
      return out;
    });
  }

  /**
   * Where `q` matches in `text`, as UTF-16 ranges: the same tokenizer and query on a one-row table with
   * content, whose highlight() marks exactly the tokens the search matched.
   */
  matches(text: string, q: string): { start: number; end: number }[] {
    const expr = ftsQuery(q);
    if (this.highlighter === null) {
      this.highlighter = new Database(':memory:');
      this.highlighter.exec(`CREATE VIRTUAL TABLE h USING fts5(text, tokenize='${TOKENIZE}')`);
    }
    const h = this.highlighter;
    // Markers the text does not contain, so every one found is ours.
    const [open, close] = (['\u0001', '\u0002', '\uE000', '\uE001', '\uFDD0', '\uFDD1'] as const).filter((c) => !text.includes(c));
    if (open === undefined || close === undefined) return [];
    h.exec('DELETE FROM h');
    h.prepare('INSERT INTO h(rowid, text) VALUES (1, ?)').run(text);
    const marked = h.prepare('SELECT highlight(h, 0, ?, ?) FROM h WHERE h MATCH ?').pluck().get(open, close, expr) as string | undefined;
    if (marked === undefined) return [];
    const out: { start: number; end: number }[] = [];
    let at = 0;
    let start = -1;
    for (let i = 0; i < marked.length; i++) {
      const c = marked[i];
      if (c === open) start = at;
      else if (c === close) {
        if (start >= 0) out.push({ start, end: at });
        start = -1;
      } else at++;
    }
    return out;
  }

  close(): void {
    for (const sh of this.shards ?? []) sh.db.close();
    this.shards = null;
    this.highlighter?.close();
    this.highlighter = null;
  }
}
