// `assay import`: Parquet files (FineWeb, any Hugging Face text dataset) → Dolma documents, one row group in memory at a time.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } from 'hyparquet';
import { AssayError } from '../errors.js';
import { expandGlobs, writeFileAtomic } from '../io/index.js';
import { markerPath } from '../io/markers.js';
import { lockOutputFolders } from '../io/output-lock.js';
import { workerEntry } from '../jobs/entry.js';
import { runPool } from '../jobs/pool.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { sha256File, sourceCounts, writeRunManifest } from '../manifest/write.js';
import { importFile, type ImportDelta, type ImportFileSummary, type ImportTask } from './file.js';

export type { ImportFileSummary } from './file.js';

export interface ImportOptions {
  /** Parquet files or globs. */
  inputs: string[];
  /** Dataset root: documents go to `<dest>/documents/<name>.jsonl.gz`. */
  dest: string;
  textField?: string;
  idField?: string;
  /** Dolma `source` of every document (default: the name of the folder holding the Parquet file). */
  source?: string;
  /** Import files again even when their markers say an earlier run with the same settings finished them. */
  ignoreExisting?: boolean;
  /** Files imported at once, one per pool worker (default 1: in this process). */
  processes?: number;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  /** Notes for the user (a folder link `**` does not follow). */
  log?: (line: string) => void;
  /**
   * One Slurm array task: import only these files (absolute paths) of the planned run and write no run manifest;
   * the final step writes it from every task's file summaries (`writeImportManifest`).
   */
  only?: readonly string[];
}

export interface ImportSummary {
  files: ImportFileSummary[];
  docs: number;
  processes: number;
  elapsedSec: number;
}

interface Planned {
  input: string;
  output: string;
  name: string;
  bytes: number;
}

/** `--source`, else the name of the folder holding the Parquet file. */
const sourceOf = (opts: ImportOptions, input: string): string => opts.source ?? basename(dirname(input));

const stemOf = (path: string): string => basename(path).replace(/\.parquet$/i, '');

/** Where the documents of one Parquet file go under a dataset root (the host confines it before an app job starts). */
export const importOutputPath = (destRoot: string, input: string): string => join(destRoot, 'documents', `${stemOf(input)}.jsonl.gz`);

export async function planImport(opts: ImportOptions, cwd: string): Promise<Planned[]> {
  const inputs = (await expandGlobs(opts.inputs, { cwd, onNote: opts.log })).map((p) => resolve(cwd, p));
  if (inputs.length === 0) throw new AssayError('CONFIG', `no Parquet files match ${opts.inputs.map((d) => `'${d}'`).join(', ')}`, { field: 'inputs' });
  const textField = opts.textField ?? 'text';
  const byName = new Map<string, string>();
  const out: Planned[] = [];
  for (const input of inputs) {
    const name = stemOf(input);
    const clash = byName.get(name);
    // Two inputs with one file name would write one output: refuse rather than let the second overwrite the first.
    if (clash !== undefined) throw new AssayError('CONFIG', `two inputs would both become documents/${name}.jsonl.gz: ${clash} and ${input}`, { file: input });
    byName.set(name, input);
    let columns: string[];
    try {
      columns = parquetSchema(await parquetMetadataAsync(await asyncBufferFromFile(input))).children.map((c) => c.element.name);
    } catch (e) {
      throw new AssayError('IO', `not a readable Parquet file: ${(e as Error).message}`, { file: input, cause: e });
    }
    if (!columns.includes(textField)) {
      throw new AssayError('CONFIG', `no text column '${textField}' (--text-field names another); its columns are: ${columns.join(', ') || '(none)'}`, { file: input, field: 'text-field' });
    }
    if (opts.idField !== undefined && !columns.includes(opts.idField)) {
      throw new AssayError('CONFIG', `no id column '${opts.idField}'; its columns are: ${columns.join(', ')}`, { file: input, field: 'id-field' });
    }
    out.push({ input, output: importOutputPath(resolve(cwd, opts.dest), input), name, bytes: (await stat(input)).size });
  }
  return out;
}

/** A finished file's marker: what its documents file was made from and with, and the summary a rerun reports for it. */
interface ImportMarker {
  fingerprint: string;
  input: { size: number; mtimeMs: number };
  output: { size: number; sha256: string };
  summary: Omit<ImportFileSummary, 'input' | 'output' | 'skipped'>;
}

/** The settings that decide a file's documents (not `added`, the run's time). */
const fingerprint = (t: ImportTask): string =>
  createHash('sha256').update(JSON.stringify({ v: 1, name: t.name, textField: t.textField, idField: t.idField, source: t.source })).digest('hex').slice(0, 16);

/** The file's summary from its marker when its output is the one an earlier run finished with these settings, else null. */
async function doneSummary(t: ImportTask): Promise<ImportFileSummary | null> {
  const [inStat, outStat] = await Promise.all([stat(t.input), stat(t.output).catch(() => null)]);
  if (outStat === null) return null;
  const m = (await readFile(markerPath(t.output), 'utf8').then(JSON.parse, () => null)) as ImportMarker | null;
  const same = m !== null && m.fingerprint === fingerprint(t) && m.input?.size === inStat.size && m.input.mtimeMs === inStat.mtimeMs && m.output?.size === outStat.size;
  return same ? { ...m.summary, input: t.input, output: t.output, skipped: true } : null;
}

async function writeMarker(t: ImportTask, r: ImportFileSummary): Promise<void> {
  const inStat = await stat(t.input);
  const { input: _input, output: _output, skipped: _skipped, ...summary } = r;
  const marker: ImportMarker = { fingerprint: fingerprint(t), input: { size: inStat.size, mtimeMs: inStat.mtimeMs }, output: { size: r.outputSize, sha256: r.outputSha256 }, summary };
  await writeFileAtomic(markerPath(t.output), JSON.stringify(marker) + '\n', { mkdir: true });
}

export async function runImport(opts: ImportOptions): Promise<ImportSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = opts.cwd ?? process.cwd();
  const only = opts.only ? new Set(opts.only) : null;
  const planned = (await planImport(opts, cwd)).filter((p) => only === null || only.has(p.input));
  // One run at a time writes a dataset's documents (a terminal beside the app, or two terminals): they would take each
  // other's temporary files. Slurm's tasks (`only`) write disjoint files and take no lock, as the mixer's slices.
  const unlock = only === null ? await lockOutputFolders([join(resolve(cwd, opts.dest), 'documents')], 'assay import') : () => undefined;
  try {
    return await importPlanned(opts, cwd, planned, only === null, startedAt, started);
  } finally {
    unlock();
  }
}

/** The planned files not done yet, imported here or on a pool, each marked when done; the summary lists every planned file. */
async function importPlanned(opts: ImportOptions, cwd: string, planned: Planned[], manifest: boolean, startedAt: Date, started: number): Promise<ImportSummary> {
  const added = new Date().toISOString();
  const files: ImportFileSummary[] = [];
  const tasks: ImportTask[] = [];
  let totalBytes = 0;
  for (const p of planned) {
    const task: ImportTask = { input: p.input, output: p.output, name: p.name, textField: opts.textField ?? 'text', idField: opts.idField ?? 'id', source: sourceOf(opts, p.input), added };
    // A file an earlier run finished is not read again: a crashed or cancelled run resumes where it stopped.
    const done = opts.ignoreExisting ? null : await doneSummary(task);
    if (done !== null) files.push(done);
    else {
      tasks.push(task);
      totalBytes += p.bytes;
    }
  }
  const tracker = new ProgressTracker('import', totalBytes, tasks.length, opts.onProgress);
  const processes = Math.max(1, Math.min(opts.processes ?? 1, tasks.length || 1));
  // Each file's marker is written as soon as it is done, so what a failed run finished stays finished.
  const finished = async (t: ImportTask, r: ImportFileSummary): Promise<void> => {
    await writeMarker(t, r);
    files.push(r);
    tracker.add({ files: 1 });
  };
  if (processes === 1) {
    for (const task of tasks) await finished(task, await importFile(task, { signal: opts.signal, onProgress: (d) => tracker.add(d) }));
  } else {
    const pending: Promise<void>[] = [];
    // One Parquet file is one task; a cancel stops the workers (a killed worker's `.tmp` is never taken for an output).
    try {
      await runPool<null, ImportTask, ImportFileSummary, ImportDelta>(tasks, {
        entry: workerEntry('import-worker', 'parquet/worker.ts'),
        processes,
        init: null,
        signal: opts.signal,
        onProgress: (_i, d) => tracker.add(d),
        onDone: (i, r) => void pending.push(finished(tasks[i] as ImportTask, r)),
      });
    } finally {
      await Promise.all(pending);
    }
  }
  tracker.emit();
  files.sort((a, b) => (a.input < b.input ? -1 : a.input > b.input ? 1 : 0));
  if (manifest) await writeImportManifest(opts, cwd, files, startedAt);
  return { files, docs: files.reduce((s, f) => s + f.docs, 0), processes, elapsedSec: (performance.now() - started) / 1000 };
}

/**
 * DEST/documents/.assay/manifest.json (stage `import`): what `assay tag` on the imported documents names as its
 * parent. hyparquet reads a file by ranges, never whole, so each input is hashed by one more sequential read here.
 */
export async function writeImportManifest(opts: ImportOptions, cwd: string, files: ImportFileSummary[], started: Date): Promise<void> {
  const inputs = [];
  for (const f of files) inputs.push({ path: f.input, role: 'parquet', sha256: await sha256File(f.input) });
  const outputs = files.map((f) => ({
    path: f.output,
    role: 'documents',
    size: f.outputSize,
    sha256: f.outputSha256,
    docs: f.docs,
    tokens: { count: f.tokens, kind: 'estimate' as const },
    bySource: f.docs > 0 ? sourceCounts({ [sourceOf(opts, f.input)]: { docs: f.docs, tokens: f.tokens } }, 'estimate') : {},
  }));
  const config = { inputs: opts.inputs, dest: opts.dest, textField: opts.textField ?? 'text', idField: opts.idField ?? 'id', source: opts.source ?? null, processes: opts.processes ?? 1 };
  await writeRunManifest(join(resolve(cwd, opts.dest), 'documents'), { stage: 'import', started, config }, inputs, outputs);
}
