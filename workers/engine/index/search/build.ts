// Second phase of `assay index`: feed every indexed text into the FTS5 table, one committed file at a time (resumable, unchanged files skipped).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AssayError } from '../../errors.js';
import { forEachLine } from '../build/lines.js';
import { indexPath, openDatabase, type DB } from '../store/db.js';
import { openSearchForWrite, ROW_BASE } from './store.js';

export interface SearchProgress {
  done: number;
  total: number;
  unit: 'bytes';
  filesDone: number;
  filesTotal: number;
  docs: number;
}

export interface SearchBuildOptions {
  signal?: AbortSignal | undefined;
  onProgress?: ((p: SearchProgress) => void) | undefined;
  log?: ((line: string) => void) | undefined;
  /** Called with each documents file before it is read; throws to refuse it (the app: a symlink out of the workspace). */
  checkPath?: ((path: string, field: string) => void) | undefined;
}

export interface SearchBuildResult {
  /** Documents whose text went into the search table in this run. */
  docs: number;
  files: number;
  /** Files already searchable and unchanged. */
  skippedFiles: number;
  ms: number;
}

interface MainFile {
  path: string;
  hash: string;
  docs: number;
  size: number;
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

export async function buildSearch(root: string, opts: SearchBuildOptions = {}): Promise<SearchBuildResult> {
  const started = performance.now();
  if (!existsSync(indexPath(root))) throw new AssayError('CONFIG', `${root} has no index yet; build it with \`assay index ${root}\``);
  const main = openDatabase(indexPath(root), { readonly: true });
  let files: MainFile[];
  try {
    files = main.prepare('SELECT path, hash, docs, size FROM files ORDER BY path').all() as MainFile[];
  } finally {
    main.close();
  }
  const db = openSearchForWrite(root, opts.log);
  try {
    const have = new Map((db.prepare('SELECT sid, path, hash FROM sfiles').all() as { sid: number; path: string; hash: string }[]).map((r) => [r.path, r]));
    const wanted = new Map(files.map((f) => [f.path, f]));
    // Files gone or changed since their texts went in: their rows go first (one transaction).
    const drop = db.prepare('DELETE FROM fts WHERE rowid >= ? AND rowid < ?');
    const dropFile = db.prepare('DELETE FROM sfiles WHERE sid = ?');
    db.transaction(() => {
      for (const [path, r] of have) {
        if (wanted.get(path)?.hash === r.hash) continue;
        drop.run(r.sid * ROW_BASE, (r.sid + 1) * ROW_BASE);
        dropFile.run(r.sid);
        have.delete(path);
      }
    })();
    const todo = files.filter((f) => !have.has(f.path));
    const total = todo.reduce((a, f) => a + f.size, 0);
    const progress: SearchProgress = { done: 0, total, unit: 'bytes', filesDone: 0, filesTotal: todo.length, docs: 0 };
    opts.onProgress?.({ ...progress });
    let docs = 0;
    for (const f of todo) {
      if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'search indexing cancelled');
      docs += await indexFile(db, root, f, opts);
      progress.done += f.size;
      progress.filesDone++;
      progress.docs = docs;
      opts.onProgress?.({ ...progress });
    }
    return { docs, files: files.length, skippedFiles: files.length - todo.length, ms: Math.round(performance.now() - started) };
  } finally {
    db.close();
  }
}

/** One documents file in one transaction: a cancel or crash leaves it absent, never half there. */
async function indexFile(db: DB, root: string, f: MainFile, opts: SearchBuildOptions): Promise<number> {
  const insert = db.prepare('INSERT INTO fts(rowid, text) VALUES (?, ?)');
  db.exec('BEGIN IMMEDIATE');
  try {
    const sid = Number(db.prepare('INSERT INTO sfiles(path, hash, docs, problem) VALUES (?, ?, ?, NULL)').run(f.path, f.hash, f.docs).lastInsertRowid);
    let ord = 0;
    const base = sid * ROW_BASE;
    opts.checkPath?.(join(root, f.path), 'documents');
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
      // The file changed after the attribute index read it (or cannot be read as the mixer would): keep it out of search and say why.
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
