// Second phase of `assay index`: every indexed text into the FTS5 shards, one committed file at a time (resumable, unchanged files skipped), shards in parallel.
import { existsSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { AssayError } from '../../errors.js';
import { workerEntry } from '../../jobs/entry.js';
import { runPool } from '../../jobs/pool.js';
import { indexPath, openDatabase } from '../store/db.js';
import { indexShardFiles, type ShardFile, type ShardProgress, type ShardTask } from './shard.js';
import { openShardForWrite, ROW_BASE, SHARDS } from './store.js';

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
  /** Processes writing shards (default: one per shard, at most the cores; small inputs are indexed in this process). */
  processes?: number | undefined;
}

export interface SearchBuildResult {
  /** Documents whose text went into the search table in this run. */
  docs: number;
  files: number;
  /** Files already searchable and unchanged. */
  skippedFiles: number;
  ms: number;
}

/** Below this much input, forking writers costs more than it saves. */
const POOL_MIN_BYTES = 64 * 1024 * 1024;

/**
 * What each shard must still index: rows of files that changed or went are deleted here first; a new file
 * goes to the shard with the fewest bytes to write, so both processes finish together.
 */
function plan(root: string, files: readonly ShardFile[], log: SearchBuildOptions['log']): ShardFile[][] {
  const wanted = new Map(files.map((f) => [f.path, f]));
  const have = new Set<string>();
  const load: number[] = [];
  for (let k = 0; k < SHARDS; k++) {
    const db = openShardForWrite(root, k, log);
    try {
      const rows = db.prepare('SELECT sid, path, hash FROM sfiles').all() as { sid: number; path: string; hash: string }[];
      const drop = db.prepare('DELETE FROM fts WHERE rowid >= ? AND rowid < ?');
      const dropFile = db.prepare('DELETE FROM sfiles WHERE sid = ?');
      db.transaction(() => {
        for (const r of rows) {
          if (wanted.get(r.path)?.hash === r.hash && !have.has(r.path)) {
            have.add(r.path);
            continue;
          }
          drop.run(r.sid * ROW_BASE, (r.sid + 1) * ROW_BASE);
          dropFile.run(r.sid);
        }
      })();
    } finally {
      db.close();
    }
    load.push(0);
  }
  const todo: ShardFile[][] = Array.from({ length: SHARDS }, () => []);
  for (const f of [...files].filter((x) => !have.has(x.path)).sort((a, b) => b.size - a.size)) {
    const k = load.indexOf(Math.min(...load));
    (todo[k] as ShardFile[]).push(f);
    load[k] = (load[k] as number) + f.size;
  }
  for (const list of todo) list.sort((a, b) => (a.path < b.path ? -1 : 1));
  return todo;
}

export async function buildSearch(root: string, opts: SearchBuildOptions = {}): Promise<SearchBuildResult> {
  const started = performance.now();
  if (!existsSync(indexPath(root))) throw new AssayError('CONFIG', `${root} has no index yet; build it with \`assay index ${root}\``);
  const main = openDatabase(indexPath(root), { readonly: true });
  let files: ShardFile[];
  try {
    files = main.prepare('SELECT path, hash, docs, size FROM files ORDER BY path').all() as ShardFile[];
  } finally {
    main.close();
  }
  // The one-file layout of an earlier version is replaced by the shards.
  rmSync(join(root, '.assay', 'search.sqlite'), { force: true });
  const todo = plan(root, files, opts.log);
  const all = todo.flat();
  for (const f of all) opts.checkPath?.(join(root, f.path), 'documents');
  const total = all.reduce((a, f) => a + f.size, 0);
  const progress: SearchProgress = { done: 0, total, unit: 'bytes', filesDone: 0, filesTotal: all.length, docs: 0 };
  opts.onProgress?.({ ...progress });
  const onFile = (p: ShardProgress): void => {
    progress.done += p.bytes;
    progress.filesDone += 1;
    progress.docs += p.docs;
    opts.onProgress?.({ ...progress });
  };
  const tasks: ShardTask[] = todo.flatMap((list, shard) => (list.length > 0 ? [{ root, shard, files: list }] : []));
  const processes = Math.max(1, Math.min(opts.processes ?? Math.min(SHARDS, cpus().length), tasks.length));
  if (processes === 1 || (opts.processes === undefined && total < POOL_MIN_BYTES)) {
    for (const t of tasks) await indexShardFiles(t, { signal: opts.signal, onFile, log: opts.log });
  } else {
    await runPool<null, ShardTask, number, ShardProgress>(tasks, {
      entry: workerEntry('search-worker', 'index/search/worker.ts'),
      processes,
      init: null,
      signal: opts.signal,
      onProgress: (_i, p) => onFile(p),
      onLog: opts.log,
    });
  }
  return { docs: progress.docs, files: files.length, skippedFiles: files.length - all.length, ms: Math.round(performance.now() - started) };
}
