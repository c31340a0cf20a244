// `assay index`: (re)build ROOT/.assay/index.sqlite in one write transaction, so readers keep a consistent snapshot.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { AssayError } from '../../errors.js';
import { errorText } from '../../io/source.js';
import { workerEntry } from '../../jobs/entry.js';
import { runPool } from '../../jobs/pool.js';
import { indexPath, journal, migrateSchema, openDatabase, resetSchema, SCHEMA_VERSION, schemaVersionOf, setMeta, getMeta, type DB } from '../store/db.js';
import { dropSpareBuffers } from './collect.js';
import { discover, type Discovery, type PathCheck } from './discover.js';
import { extractFile, type ExtractTask, type FileExtract } from './extract.js';
import { planBuild } from './plan.js';
import { IndexWriter } from './write.js';
import { processAlive } from '../../io/process.js';

export interface BuildProgress {
  done: number;
  total: number;
  unit: string;
  /** Documents files read so far / to read, and documents indexed so far (for progress lines). */
  filesDone?: number;
  filesTotal?: number;
  docs?: number;
}

export interface BuildOptions {
  signal?: AbortSignal;
  onProgress?: (p: BuildProgress) => void;
  /** Notes for the user (a rebuilt index, files that cannot be mixed). */
  log?: (line: string) => void;
  /** Child processes that read files (default: up to 2 for inputs over 64 MB; 1 reads in this process). */
  processes?: number;
  /** Refuses files and folders the build must not read (the app: symlinks leading outside its workspace). */
  checkPath?: PathCheck;
  /** Filled with the sha256 of every file this build read (path relative to the root → hex), for the run manifest. */
  digests?: Map<string, string>;
  /**
   * Files already read elsewhere (a Slurm run's array tasks), by documents path relative to the root: used for a
   * task that reads the documents and sets they hold, when the files are the size and mtime they were read at.
   */
  extracted?: ReadonlyMap<string, PreExtracted>;
}

/** One documents file read by `extractFile` elsewhere, with what its files were when read. */
export interface PreExtracted {
  extract: FileExtract;
  sets: string[];
  /** Size and mtime of the documents file and of each attribute file read, by path relative to the root. */
  stamps: Record<string, { size: number; mtimeMs: number }>;
}

/** Where a build's time went, in ms (wall clock; `write` runs inside `read`, while readers work). */
export interface BuildPhases {
  /** Listing the dataset, opening the index, deciding what to read (hashing touched files). */
  plan: number;
  /** From the first file handed to a reader until the last result is written. */
  read: number;
  /** Of `read`: this process writing results into the index. */
  write: number;
  /** Re-creating the id index after a full rebuild. */
  idIndex: number;
  /** Committing, then copying the write-ahead log into the database file. */
  commit: number;
}

export interface BuildResult {
  docs: number;
  files: number;
  /** Documents files left as indexed (unchanged since the last build). */
  skippedFiles: number;
  attributeSets: number;
  /** Wall time of the whole build, the index committed and checkpointed. */
  ms: number;
  phases: BuildPhases;
  /** Files the mixer would refuse (malformed lines, mismatched attributes), one message each. */
  problems?: string[];
}

/** Below this much input, forking readers costs more than it saves. */
const POOL_MIN_BYTES = 64 * 1024 * 1024;

export async function buildIndex(root: string, opts: BuildOptions = {}): Promise<BuildResult> {
  const started = performance.now();
  const found = await discover(root, opts.checkPath, opts.log);
  const path = indexPath(root);
  try {
    mkdirSync(join(root, '.assay'), { recursive: true });
  } catch (e) {
    throw indexWriteError(e, path);
  }
  // A first build that fails leaves no index at all (an empty one would look like a dataset without documents):
  // it is written beside the index and renamed into place once committed, so even a killed one leaves only a
  // `.tmp`, which the next build removes.
  const firstBuild = !existsSync(path);
  const target = firstBuild ? `${path}.${process.pid}.tmp` : path;
  if (firstBuild) removeStaleFirstBuilds(path);
  let failed = true;
  const removeFailed = (): void => {
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(target + suffix, { force: true });
  };
  let opened: { db: DB; replaced: boolean };
  try {
    // A first build is a new file nobody reads until it is renamed into place, and a failed one is removed: its
    // rollback journal stays in memory (and holds next to nothing: pages past a file's original end are not
    // journalled), so every page is written once instead of twice (log, then checkpoint). At 10^7 documents: 69 → 61 s.
    opened = openIndexForWrite(target, opts.log, firstBuild ? 'memory' : 'wal');
  } catch (e) {
    if (firstBuild) removeFailed();
    throw e;
  }
  const { db, replaced } = opened;
  const phases: BuildPhases = { plan: 0, read: 0, write: 0, idIndex: 0, commit: 0 };
  let checkpointed = false;
  try {
    // IMMEDIATE: one writer at a time; readers (WAL) keep their snapshot until this commits.
    db.exec('BEGIN IMMEDIATE');
    try {
      const version = schemaVersionOf(db);
      if (version !== SCHEMA_VERSION && !migrateSchema(db, version)) {
        if (version !== 0) opts.log?.(`the index at ${path} was built by ${version < 0 ? 'something else' : `another version of Assay (schema ${version})`}; rebuilding it for schema ${SCHEMA_VERSION}`);
        resetSchema(db);
      }
      const plan = await planBuild(root, db, found);
      const writer = new IndexWriter(db);
      for (const id of plan.removedFiles) writer.removeFile(id);
      for (const r of plan.removedAttributes) writer.removeAttributes(r.set, r.file);
      for (const t of plan.touchedFiles) writer.touchFile(t.id, t.mtimeMs);
      for (const t of plan.touchedAttributes) writer.touchAttributes(t.set, t.file, t.mtimeMs);
      const attrPaths = (file: string): Map<string, string> =>
        new Map(found.sets.flatMap((s) => {
          const a = found.attributes.get(s)?.get(file);
          return a ? [[s, a.path] as [string, string]] : [];
        }));
      let done = 0;
      let filesDone = 0;
      let docs = 0;
      const filesTotal = plan.tasks.length;
      opts.onProgress?.({ done, total: plan.bytes, unit: 'bytes', filesDone, filesTotal, docs });
      const onResult = (task: ExtractTask, x: FileExtract): void => {
        const t = performance.now();
        const paths = attrPaths(task.file);
        if (x.docs) opts.digests?.set(task.file, x.docs.stat.sha256);
        for (const s of x.sets) {
          const p = paths.get(s.name);
          if (p !== undefined) opts.digests?.set(p, s.stat.sha256);
        }
        writer.write(x, paths);
        phases.write += performance.now() - t;
        done += (x.docs?.stat.size ?? 0) + x.sets.reduce((a, s) => a + s.stat.size, 0);
        filesDone++;
        docs += x.docs?.count ?? 0;
        opts.onProgress?.({ done, total: plan.bytes, unit: 'bytes', filesDone, filesTotal, docs });
      };
      // A secondary index is cheaper to build once over all rows than to maintain row by row.
      const bulk = plan.unchangedFiles === 0 && plan.tasks.length > 0;
      if (bulk) db.exec('DROP INDEX IF EXISTS docs_id');
      let t = performance.now();
      phases.plan = t - started;
      await runTasks(plan.tasks, plan.bytes, onResult, opts, usable(found, opts.extracted));
      phases.read = performance.now() - t;
      t = performance.now();
      if (bulk) db.exec('CREATE INDEX docs_id ON docs(id)');
      phases.idIndex = performance.now() - t;
      t = performance.now();
      const n = Number(getMeta(db, 'generation') ?? '0') + 1;
      setMeta(db, 'generation', String(n));
      setMeta(db, 'built_at', new Date().toISOString());
      setMeta(db, 'root', root);
      db.exec('COMMIT');
      try {
        // A first build's one file, written without a log, becomes a WAL database like any index before it is renamed into place.
        if (firstBuild) journal(db, 'wal');
        else db.pragma('wal_checkpoint(PASSIVE)');
        checkpointed = true;
      } catch (e) {
        // A first build that is not one file yet cannot be moved into place: it failed.
        if (firstBuild) throw e;
        // Committed already (the write-ahead log holds it): readers see the new index; SQLite folds the log in later.
        opts.log?.(`the index was committed but its write-ahead log could not be folded in yet: ${(e as Error).message}`);
      }
      failed = false;
      phases.commit = performance.now() - t;
      const result = summarise(db, plan.unchangedFiles, performance.now() - started, phases);
      for (const p of result.problems ?? []) opts.log?.(`cannot be mixed: ${p}`);
      return result;
    } catch (e) {
      // A failed COMMIT (disk full) may have ended the transaction already; the first error is the one to report.
      try {
        if (db.inTransaction) db.exec('ROLLBACK');
      } catch {
        /* the original error below says what went wrong */
      }
      throw indexWriteError(e, path);
    }
  } finally {
    try {
      if (!checkpointed && failed) db.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      /* only after a failure, which is what gets reported */
    } finally {
      db.close();
      if (failed && (firstBuild || replaced)) removeFailed();
    }
    if (!failed && firstBuild) publishFirstBuild(target, path);
  }
}

function publishFirstBuild(target: string, path: string): void {
  try {
    for (const suffix of ['-wal', '-shm']) rmSync(target + suffix, { force: true });
    renameSync(target, path);
  } catch (e) {
    throw new AssayError('IO', `cannot move the new index into place: ${errorText(e)}`, { file: path, cause: e });
  }
}

/** `index.sqlite.<pid>.tmp*` of first builds whose process is gone (killed before renaming its index into place). */
function removeStaleFirstBuilds(path: string): void {
  const dir = dirname(path);
  const stem = basename(path);
  for (const name of readdirSync(dir)) {
    const m = name.startsWith(`${stem}.`) ? /^\.(\d+)\.tmp(-wal|-shm|-journal)?$/.exec(name.slice(stem.length)) : null;
    if (m !== null && !processAlive(Number(m[1]))) rmSync(join(dir, name), { force: true });
  }
}


/**
 * SQLite and file-system failures as errors naming the file: disk full names the index and says so;
 * an unreadable input names that input (errors from reading one already carry its name).
 */
function indexWriteError(e: unknown, path: string): unknown {
  if (e instanceof AssayError || !(e instanceof Error)) return e;
  const code = (e as { code?: unknown }).code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return new AssayError('IO', `disk full: cannot write the index (${e.message}); free some space and build it again`, { file: path, cause: e });
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return new AssayError('IO', `cannot write the index: ${e.message} (${code})`, { file: path, cause: e });
  const file = (e as NodeJS.ErrnoException).path;
  if (typeof code === 'string' && file !== undefined) return new AssayError('IO', `cannot read: ${errorText(e)}`, { file, cause: e });
  return e;
}

/** Opens (or creates) the index; a file that is not a database at all is replaced, with a note. */
function openIndexForWrite(path: string, log: BuildOptions['log'], journal: 'wal' | 'memory'): { db: DB; replaced: boolean } {
  try {
    const db = openDatabase(path, { create: true, journal });
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return { db, replaced: false };
  } catch (e) {
    if (!existsSync(path) || !/not a database|malformed/i.test((e as Error).message)) {
      const full = indexWriteError(e, path);
      throw full instanceof AssayError ? full : new AssayError('IO', `cannot open the index: ${(e as Error).message}`, { file: path });
    }
    log?.(`${path} is not a readable index (${(e as Error).message}); rebuilding it`);
    for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
    return { db: openDatabase(path, { create: true, journal }), replaced: true };
  }
}

/** The pre-read files whose documents and attribute files are unchanged since they were read. */
function usable(found: Discovery, extracted: ReadonlyMap<string, PreExtracted> | undefined): (t: ExtractTask) => FileExtract | null {
  if (extracted === undefined) return () => null;
  const now = new Map<string, { size: number; mtimeMs: number }>(found.documents.map((d) => [d.path, d]));
  for (const bySet of found.attributes.values()) for (const f of bySet.values()) now.set(f.path, f);
  return (t) => {
    const x = extracted.get(t.file);
    if (x === undefined || !t.docs || !t.sets.every((s) => x.sets.includes(s))) return null;
    const same = Object.entries(x.stamps).every(([p, st]) => now.get(p)?.size === st.size && now.get(p)?.mtimeMs === st.mtimeMs);
    return same ? { ...x.extract, sets: x.extract.sets.filter((s) => t.sets.includes(s.name)) } : null;
  };
}

async function runTasks(tasks: ExtractTask[], bytes: number, onResult: (t: ExtractTask, x: FileExtract) => void, opts: BuildOptions, pre: (t: ExtractTask) => FileExtract | null = () => null): Promise<void> {
  const rest: ExtractTask[] = [];
  for (const t of tasks) {
    const x = pre(t);
    if (x === null) rest.push(t);
    else onResult(t, x);
  }
  if (rest.length < tasks.length) opts.log?.(`${tasks.length - rest.length} file(s) read by the array tasks; ${rest.length} read here`);
  tasks = rest;
  if (tasks.length === 0) return;
  const processes = Math.max(1, Math.min(opts.processes ?? Math.min(2, cpus().length), tasks.length));
  // Unless asked for explicitly, small inputs are read in this process.
  if (processes === 1 || (opts.processes === undefined && bytes < POOL_MIN_BYTES)) {
    try {
      for (const t of tasks) {
        if (opts.signal?.aborted) throw new AssayError('CANCELLED', 'indexing cancelled');
        onResult(t, await extractFile(t, opts.signal));
      }
    } finally {
      // This process (the app's engine, a CLI) goes on after the build: it keeps no spare column buffers.
      dropSpareBuffers();
    }
    return;
  }
  await runPool<null, ExtractTask, FileExtract, null>(tasks, {
    entry: workerEntry('index-worker', 'index/build/worker.ts'),
    processes,
    init: null,
    signal: opts.signal,
    onDone: (i, x) => onResult(tasks[i] as ExtractTask, x),
  });
}

function summarise(db: DB, unchanged: number, ms: number, phases: BuildPhases): BuildResult {
  const count = (sql: string): number => Number(db.prepare(sql).pluck().get());
  const problems = [
    ...(db.prepare('SELECT problem FROM files WHERE problem IS NOT NULL').pluck().all() as string[]),
    ...(db.prepare('SELECT problem FROM attr_files WHERE problem IS NOT NULL').pluck().all() as string[]),
  ].map((p) => (JSON.parse(p) as { message: string }).message);
  return {
    docs: count('SELECT coalesce(sum(docs), 0) FROM files'),
    files: count('SELECT count(*) FROM files'),
    skippedFiles: unchanged,
    attributeSets: count('SELECT count(DISTINCT set_name) FROM attr_files'),
    ms: Math.round(ms),
    phases: { plan: Math.round(phases.plan), read: Math.round(phases.read), write: Math.round(phases.write), idIndex: Math.round(phases.idIndex), commit: Math.round(phases.commit) },
    ...(problems.length > 0 ? { problems } : {}),
  };
}
