// `assay warc` as an engine job: one WARC file per pool task, resume markers, progress with pages/s and ETA, cancel.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { AssayError } from '../errors.js';
import { writeFileAtomic } from '../io/index.js';
import { workerEntry } from '../jobs/entry.js';
import { runPool } from '../jobs/pool.js';
import { ProgressTracker, type ProgressSink } from '../jobs/progress.js';
import { writeRunManifest, type InputRecord, type OutputRecord } from '../manifest/write.js';
import { markerPath } from '../io/markers.js';
import { urlFilterOptions } from '../tag/taggers/datatrove/url-filter.js';
import { DEFAULT_EXTRACTOR, EXTRACTORS } from './extract/index.js';
import { processWarcFile } from './file.js';
import { planWarcTasks } from './plan.js';
import { emptyCounts, type WarcCounts, type WarcFileOptions, type WarcFileResult, type WarcProgressDelta, type WarcTask } from './types.js';

export type { WarcCounts, WarcFileResult } from './types.js';

export interface WarcOptions {
  documents: string[];
  destination: string;
  extractor?: string;
  processes?: number;
  /** Each document's `source` (Dolma's source_name); default "warc". */
  sourceName?: string;
  dump?: string | null;
  /** url_filter tagger options (its lists and word lists); false: no URL filtering. Default: DataTrove's integrated lists. */
  urlFilter?: Record<string, unknown> | false;
  /** Keep only pages identified as these languages (fastText lid.176); implies language id. */
  languages?: string[];
  /** Label each page's language without dropping any. */
  languageId?: boolean;
  languageThreshold?: number;
  lidModel?: string;
  minTextLength?: number;
  maxHtmlBytes?: number;
  ignoreExisting?: boolean;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
  /**
   * One Slurm array task: extract only these WARC files (absolute paths) of the planned run, named as in the
   * whole run; no run manifest (the final step, a rerun of the whole command, writes it from the markers).
   */
  only?: readonly string[];
}

export interface WarcSummary {
  files: { input: string; output: string; status: 'done' | 'skipped'; counts: WarcCounts }[];
  totals: WarcCounts;
  elapsedSec: number;
  processes: number;
}

interface Marker {
  fingerprint: string;
  input: { size: number; mtimeMs: number; sha256: string };
  output: { size: number; sha256: string };
  counts: WarcCounts;
  tokens: number;
}

export const DEFAULT_MAX_HTML_BYTES = 10 * 1024 * 1024;

export function resolveWarcOptions(o: WarcOptions, cwd: string): WarcFileOptions {
  const extractor = o.extractor ?? DEFAULT_EXTRACTOR;
  if (!EXTRACTORS.includes(extractor)) throw new AssayError('CONFIG', `unknown extractor '${extractor}' (known: ${EXTRACTORS.join(', ')})`, { field: 'extractor' });
  let urlFilter = null;
  if (o.urlFilter !== false) {
    const parsed = urlFilterOptions.safeParse(o.urlFilter ?? {});
    if (!parsed.success) throw new AssayError('CONFIG', `${parsed.error.issues[0]?.path.join('.') || 'options'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`, { field: 'url_filter' });
    urlFilter = parsed.data;
  }
  const threshold = o.languageThreshold ?? 0.65;
  if (!(threshold >= 0 && threshold <= 1)) throw new AssayError('CONFIG', `must be in [0, 1], got ${threshold}`, { field: 'language_threshold' });
  const minTextLength = o.minTextLength ?? 0;
  const maxHtmlBytes = o.maxHtmlBytes ?? DEFAULT_MAX_HTML_BYTES;
  if (!Number.isInteger(minTextLength) || minTextLength < 0) throw new AssayError('CONFIG', `must be an integer ≥ 0, got ${minTextLength}`, { field: 'min_text_length' });
  if (!Number.isInteger(maxHtmlBytes) || maxHtmlBytes < 1) throw new AssayError('CONFIG', `must be an integer ≥ 1, got ${maxHtmlBytes}`, { field: 'max_html_bytes' });
  const lid = o.languageId === true || (o.languages?.length ?? 0) > 0;
  return {
    extractor, sourceName: o.sourceName ?? 'warc', dump: o.dump ?? null, urlFilter, minTextLength, maxHtmlBytes, cwd, added: new Date().toISOString(),
    language: lid ? { ...(o.languages?.length ? { languages: o.languages } : {}), threshold, ...(o.lidModel ? { modelPath: o.lidModel } : {}) } : null,
  };
}

/** What decides a file's output: a marker from other options does not count. */
const fingerprint = (f: WarcFileOptions): string => createHash('sha256').update(JSON.stringify({ v: 1, ...f, added: null, cwd: null })).digest('hex').slice(0, 16);

async function doneMarker(task: WarcTask, fp: string): Promise<Marker | null> {
  const [inStat, outStat] = await Promise.all([stat(task.input), stat(task.output).catch(() => null)]);
  if (outStat === null) return null;
  const m = (await readFile(markerPath(task.output), 'utf8').then(JSON.parse, () => null)) as Marker | null;
  const same = m !== null && typeof m.input.sha256 === 'string' && m.fingerprint === fp && m.input.size === inStat.size && m.input.mtimeMs === inStat.mtimeMs && m.output.size === outStat.size;
  return same ? m : null;
}

export async function runWarc(o: WarcOptions): Promise<WarcSummary> {
  const started = performance.now();
  const startedAt = new Date();
  const cwd = o.cwd ?? process.cwd();
  const fileOptions = resolveWarcOptions(o, cwd);
  const fp = fingerprint(fileOptions);
  const summary: WarcSummary = { files: [], totals: emptyCounts(), elapsedSec: 0, processes: 1 };
  const inputs: InputRecord[] = [];
  const outputs: OutputRecord[] = [];
  const add = (f: WarcSummary['files'][number], m: Marker): void => {
    inputs.push({ path: f.input, role: 'warc', sha256: m.input.sha256, size: m.input.size, mtimeMs: m.input.mtimeMs });
    outputs.push({ path: f.output, role: 'documents', size: m.output.size, sha256: m.output.sha256, docs: m.counts.kept, tokens: { count: m.tokens, kind: 'estimate' } });
    summary.files.push(f);
    for (const k of Object.keys(f.counts) as (keyof WarcCounts)[]) summary.totals[k] += f.counts[k];
  };
  const tasks: WarcTask[] = [];
  let totalBytes = 0;
  const only = o.only ? new Set(o.only) : null;
  for (const task of await planWarcTasks(o.documents, o.destination, cwd, o.log)) {
    if (only !== null && !only.has(task.input)) continue;
    const m = o.ignoreExisting ? null : await doneMarker(task, fp);
    if (m !== null) add({ input: task.input, output: task.output, status: 'skipped', counts: m.counts }, m);
    else {
      tasks.push(task);
      totalBytes += (await stat(task.input)).size;
    }
  }
  const tracker = new ProgressTracker('warc', totalBytes, tasks.length, o.onProgress);
  const processes = Math.max(1, Math.min(o.processes ?? 1, tasks.length || 1));
  summary.processes = processes;
  const onDone = async (task: WarcTask, r: WarcFileResult): Promise<void> => {
    tracker.add({ files: 1 });
    const inStat = await stat(task.input);
    const marker: Marker = { fingerprint: fp, input: { size: inStat.size, mtimeMs: inStat.mtimeMs, sha256: r.inputSha256 }, output: { size: r.outputSize, sha256: r.outputSha256 }, counts: r.counts, tokens: r.tokens };
    await writeFileAtomic(markerPath(task.output), JSON.stringify(marker) + '\n', { mkdir: true });
    add({ input: task.input, output: task.output, status: 'done', counts: r.counts }, marker);
  };
  if (processes === 1) {
    for (const task of tasks) await onDone(task, await processWarcFile(task, fileOptions, { signal: o.signal, onProgress: (d) => tracker.add(d), log: o.log }));
  } else {
    const pending: Promise<void>[] = [];
    await runPool<WarcFileOptions, WarcTask, WarcFileResult, WarcProgressDelta>(tasks, {
      entry: workerEntry('warc-worker', 'warc/worker.ts'),
      processes,
      init: fileOptions,
      signal: o.signal,
      onProgress: (_i, d) => tracker.add(d),
      onDone: (i, r) => void pending.push(onDone(tasks[i] as WarcTask, r)),
      onLog: o.log,
    });
    await Promise.all(pending);
  }
  tracker.emit();
  // DEST/documents/.assay/manifest.json: what `assay tag` on these documents names as its parent run.
  if (only === null) await writeRunManifest(join(resolve(cwd, o.destination), 'documents'), { stage: 'warc', started: startedAt, config: { ...fileOptions, added: undefined, documents: o.documents, destination: o.destination } }, inputs, outputs);
  summary.files.sort((a, b) => (a.input < b.input ? -1 : a.input > b.input ? 1 : 0));
  summary.elapsedSec = (performance.now() - started) / 1000;
  return summary;
}
