// `assay decon`: load the eval sets, build (or reuse a matching) saved index, then tag the documents with it on the tag runtime.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AssayError } from '../errors.js';
import type { ProgressSink } from '../jobs/progress.js';
import { attributeSetFolder } from '../manifest/write.js';
import { runTag, type TagSummary } from '../tag/runtime.js';
import { writeEvalItemsFile } from './report/index.js';
import { loadEvalSet, type EvalSetConfig } from './eval-sets.js';
import { DEFAULT_NGRAM, DeconIndex, type SetStats } from './index.js';
import { headerMismatch, loadIndex, saveIndex, type DeconHeader } from './index-file.js';
import { NORMALISATION } from './words.js';

export interface DeconOptions {
  documents: string[];
  /** Attribute set and key prefix: `attributes/<name>/`, `<name>__decon__overlap`. */
  name: string;
  sets: EvalSetConfig[];
  ngram?: number;
  /** Where the index is saved (and reused from when it matches). */
  indexPath: string;
  /** Rebuild a saved index that does not match instead of refusing it. */
  rebuild?: boolean;
  /** Build (or check) the index and stop. */
  buildOnly?: boolean;
  processes?: number;
  ignoreExisting?: boolean;
  /** false: no run manifest for the attribute set (a cluster array task; see TagOptions.manifest). */
  manifest?: boolean;
  cwd?: string;
  signal?: AbortSignal;
  onProgress?: ProgressSink;
  log?: (message: string) => void;
}

export interface IndexReport {
  index: DeconIndex;
  path: string;
  sha256: string;
  built: boolean;
  ngrams: number;
  sets: SetStats[];
  buildSec: number;
}

export interface DeconSummary {
  index: IndexReport;
  tag: TagSummary | null;
}

/** Loads the saved index when it matches the eval sets and n; builds and saves one when there is none (or `rebuild`). */
export async function prepareIndex(opts: DeconOptions): Promise<IndexReport> {
  const n = opts.ngram ?? DEFAULT_NGRAM;
  if (!Number.isInteger(n) || n < 1) throw new AssayError('CONFIG', `ngram must be a positive integer, got ${n}`, { field: 'ngram' });
  if (opts.sets.length === 0) throw new AssayError('CONFIG', 'no eval sets given (--eval PATH… or eval: in the config)', { field: 'eval' });
  const names = opts.sets.map((s) => s.name);
  const dup = names.find((x, k) => names.indexOf(x) !== k);
  if (dup !== undefined) throw new AssayError('CONFIG', `two eval sets are named '${dup}'; hits are "<set>:<item_id>", so names must differ`, { field: 'eval' });
  const started = performance.now();
  const sets = await Promise.all(opts.sets.map(loadEvalSet));
  const header: DeconHeader = { n, normalisation: NORMALISATION, sets: sets.map((s) => ({ name: s.config.name, fields: s.config.fields, idField: s.config.idField ?? null, sha256: s.sha256 })) };
  const path = opts.indexPath;
  if ((await stat(path).catch(() => null)) !== null) {
    const saved = await loadIndex(path);
    const why = headerMismatch(saved.header, header);
    if (why === null) return { index: saved.index, path, sha256: saved.sha256, built: false, ngrams: saved.index.table.count, sets: saved.index.sets, buildSec: 0 };
    if (!opts.rebuild) throw new AssayError('CONFIG', `the saved decontamination index does not match this config: ${why}. Rebuild it with --rebuild (rebuild: true), or give another path with --decon-index`, { file: path });
    opts.log?.(`rebuilding ${path}: ${why}`);
  }
  const index = DeconIndex.build(sets, n);
  for (const s of index.sets) {
    if (s.shortItems === s.items) throw new AssayError('CONFIG', `eval set '${s.name}' has no item of ${n} or more words, so nothing of it can be found (lower --ngram)`, { field: 'eval' });
  }
  const sha256 = await saveIndex(path, index, header);
  return { index, path, sha256, built: true, ngrams: index.table.count, sets: index.sets, buildSec: (performance.now() - started) / 1000 };
}

export async function runDecon(opts: DeconOptions): Promise<DeconSummary> {
  const cwd = opts.cwd ?? process.cwd();
  const index = await prepareIndex({ ...opts, indexPath: resolve(cwd, opts.indexPath) });
  if (opts.buildOnly) return { index, tag: null };
  const tag = await runTag({
    documents: opts.documents,
    taggers: [{ name: 'decon', options: { index: index.path, sha256: index.sha256 }, experiment: opts.name }],
    processes: opts.processes,
    ignoreExisting: opts.ignoreExisting,
    manifest: opts.manifest,
    cwd,
    signal: opts.signal,
    onProgress: opts.onProgress,
    log: opts.log,
  });
  // The report and the inspector read item counts and texts from beside the attributes.
  const folders = new Set(tag.files.flatMap((f) => f.outputs.map((o) => attributeSetFolder(o, opts.name))));
  for (const folder of folders) await writeEvalItemsFile(folder, index.index);
  return { index, tag };
}
