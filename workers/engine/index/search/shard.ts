// Indexes documents files into one search shard: each file in its own transaction, so an interrupted run keeps what it finished.
import { join } from 'node:path';
import { AssayError } from '../../errors.js';
import { forEachLine } from '../build/lines.js';
import type { DB } from '../store/db.js';
import { openShardForWrite, ROW_BASE } from './store.js';

/** A documents file as the attribute index recorded it. */
export interface ShardFile {
  path: string;
  hash: string;
  docs: number;
  size: number;
}

export interface ShardTask {
  root: string;
  shard: number;
  files: ShardFile[];
}

/** Reported after each file (bytes of the documents file, texts indexed). */
export interface ShardProgress {
  bytes: number;
  docs: number;
}

/** The text field of a document line, '' when it has none (the index counts such documents too). */
function textOf(line: string): string {
  try {
    const t = (JSON.parse(line) as { text?: unknown } | null)?.text;
    return typeof t === 'string' ? t : '';
  } catch {
    return '';
  }
}

export async function indexShardFiles(task: ShardTask, opts: { signal?: AbortSignal | undefined; onFile: (p: ShardProgress) => void; log?: ((line: string) => void) | undefined }): Promise<number> {
  const db = openShardForWrite(task.root, task.shard, opts.log);
  let docs = 0;
  try {
    for (const f of task.files) {
      if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'search indexing cancelled');
      const n = await indexFile(db, task.root, f, opts);
      docs += n;
      opts.onFile({ bytes: f.size, docs: n });
    }
  } finally {
    db.close();
  }
  return docs;
}

async function indexFile(db: DB, root: string, f: ShardFile, opts: { signal?: AbortSignal | undefined; log?: ((line: string) => void) | undefined }): Promise<number> {
  const insert = db.prepare('INSERT INTO fts(rowid, text) VALUES (?, ?)');
  db.exec('BEGIN IMMEDIATE');
  try {
    const sid = Number(db.prepare('INSERT INTO sfiles(path, hash, docs, problem) VALUES (?, ?, ?, NULL)').run(f.path, f.hash, f.docs).lastInsertRowid);
    let ord = 0;
    const base = sid * ROW_BASE;
    const hash = await forEachLine(
      join(root, f.path),
      (buf, start, end) => {
        const text = textOf(buf.toString('utf8', start, end));
        if (text !== '') insert.run(base + ord, text);
        ord++;
        return true;
      },
      opts.signal,
    );
    if (hash !== f.hash || ord !== f.docs) {
      // The file changed after the attribute index read it (or cannot be read as the mixer would): kept out of search, and said why.
      db.exec('ROLLBACK');
      const why = hash === null ? 'cannot be read to its end as UTF-8' : 'changed since it was indexed';
      db.prepare('INSERT INTO sfiles(path, hash, docs, problem) VALUES (?, ?, 0, ?)').run(f.path, f.hash, why);
      opts.log?.(`search: ${join(root, f.path)} ${why}; its texts are not searchable until \`assay index ${root}\` reads it again`);
      return 0;
    }
    db.exec('COMMIT');
    return ord;
  } catch (e) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
