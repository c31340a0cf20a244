// Runs a planned job through the engine library (inside the job process) and condenses its summary for the run history.
import { dirname, isAbsolute, relative } from 'node:path';
import { formatDeconSummary } from '../../engine/cli/decon.js';
import { formatDedupeSummary } from '../../engine/cli/dedupe.js';
import { formatMinhashSummary } from '../../engine/cli/minhash.js';
import { formatSummary } from '../../engine/cli/mix.js';
import { formatTokensSummary } from '../../engine/cli/tokens.js';
import { runDecon } from '../../engine/decon/run.js';
import { runDedupe } from '../../engine/dedupe/index.js';
import { runMinhash } from '../../engine/dedupe/minhash/index.js';
import { runMix } from '../../engine/mix/mixer.js';
import { runImport } from '../../engine/parquet/index.js';
import { runTag } from '../../engine/tag/runtime.js';
import { runTokens } from '../../engine/tokenize/runtime.js';
import { runWarc } from '../../engine/warc/index.js';
import { computeExactPreview } from '../exact-preview.js';
import type { StageProgress } from './meter.js';
import type { JobPlan } from './plan.js';

export interface ExecuteContext {
  root: string;
  signal: AbortSignal;
  onProgress: (p: StageProgress) => void;
  log: (line: string) => void;
}

export interface ExecuteResult {
  summary: string;
  /** Folders written, relative to the workspace. */
  outputs: string[];
  /** Attributes changed, so the index must be brought up to date. */
  reindex: boolean;
  /** Set when this job built the index itself. */
  indexedDocs?: number;
}

/** Builds or refreshes the attribute index (the engine's `buildIndex`), returning the documents indexed. */
export type IndexBuilder = (root: string, opts: { signal: AbortSignal; onProgress: (p: StageProgress) => void; log: (line: string) => void }) => Promise<{ summary: string; docs: number }>;

const n = (x: number): string => x.toLocaleString('en-US');

function folders(root: string, files: readonly string[], limit = 20): string[] {
  const rel = (p: string): string => {
    const r = relative(root, p);
    return r.startsWith('..') || isAbsolute(r) ? p : r;
  };
  return [...new Set(files.map((f) => rel(dirname(f))))].slice(0, limit);
}

const logLines = (log: (l: string) => void, text: string): void => text.trimEnd().split('\n').forEach((l) => log(l));

export async function executePlan(plan: JobPlan, c: ExecuteContext, buildIndex: IndexBuilder): Promise<ExecuteResult> {
  const base = { cwd: c.root, signal: c.signal, onProgress: c.onProgress, log: c.log };
  switch (plan.kind) {
    case 'tag': {
      const s = await runTag({ ...plan.tag, ...base });
      const tagged = s.files.filter((f) => f.status === 'tagged');
      const skipped = s.files.length - tagged.length;
      const summary = `tagged ${tagged.length} file(s), ${n(s.docs)} docs in ${s.elapsedSec.toFixed(1)} s${skipped ? `; ${skipped} already tagged` : ''}${s.badLines ? `; ${s.badLines} bad line(s)` : ''}`;
      return { summary, outputs: folders(c.root, s.files.flatMap((f) => f.outputs)), reindex: true };
    }
    case 'dedupe': {
      const s = await runDedupe(plan.dedupe, base);
      logLines(c.log, formatDedupeSummary(s));
      const summary = `${n(s.documents)} docs checked, ${n(s.duplicateDocs)} with duplicate spans (${n(s.spans)} spans) in ${s.elapsedSec.toFixed(1)} s`;
      return { summary, outputs: folders(c.root, s.files.map((f) => f.output)), reindex: true };
    }
    case 'minhash': {
      const s = await runMinhash(plan.minhash, base);
      logLines(c.log, formatMinhashSummary(s));
      const summary = `${n(s.documents)} docs, ${n(s.clusters)} near-duplicate cluster(s), ${n(s.duplicates)} duplicate(s) to drop, in ${s.elapsedSec.toFixed(1)} s`;
      return { summary, outputs: folders(c.root, s.files.map((f) => f.output)), reindex: true };
    }
    case 'mix': {
      const s = await runMix(plan.mix, base);
      logLines(c.log, formatSummary(s));
      const summary = s.streams
        .map((st) => `${st.name}: kept ${n(st.docs.kept)} of ${n(st.docs.read)} documents → ${relative(c.root, st.output) || '.'}`)
        .join('; ');
      return { summary, outputs: s.streams.map((st) => relative(c.root, st.output)), reindex: false };
    }
    case 'tokens': {
      const s = await runTokens({ ...plan.tokens, ...base });
      logLines(c.log, formatTokensSummary(s));
      const dest = relative(c.root, s.destination) || '.';
      const summary = `tokenized ${n(s.docs)} docs → ${n(s.tokens)} ${s.dtype} tokens in ${s.outputs.length} file pair(s) under ${dest}, in ${s.elapsedSec.toFixed(1)} s`;
      return { summary, outputs: [dest], reindex: false };
    }
    case 'import': {
      const p = plan.import;
      const s = await runImport({ inputs: p.documents, dest: p.destination, textField: p.text_field, idField: p.id_field, source: p.source, processes: p.processes, cwd: c.root, signal: c.signal, onProgress: c.onProgress });
      for (const f of s.files) c.log(`${relative(c.root, f.input)} → ${relative(c.root, f.output)}: ${n(f.rows)} rows, ${n(f.docs)} documents${f.noText ? `, ${n(f.noText)} without text` : ''}`);
      const summary = `imported ${n(s.docs)} documents from ${s.files.length} Parquet file(s) in ${s.elapsedSec.toFixed(1)} s`;
      // The new documents are indexed at once, so the table shows them when the job ends.
      return { summary, outputs: folders(c.root, s.files.map((f) => f.output)), reindex: true };
    }
    case 'warc': {
      const s = await runWarc({ ...plan.warc, ...base });
      const t = s.totals;
      for (const f of s.files) c.log(`${relative(c.root, f.input)} → ${relative(c.root, f.output)}: ${f.status === 'skipped' ? 'already extracted' : `${n(f.counts.kept)} of ${n(f.counts.records)} records kept`}`);
      const summary = `extracted ${n(t.kept)} documents from ${n(t.records)} WARC records in ${s.files.length} file(s) in ${s.elapsedSec.toFixed(1)} s; skipped: ${n(t.nonHtml)} not HTML, ${n(t.urlBlocked)} URL-blocked, ${n(t.empty + t.tooShort)} empty or too short, ${n(t.malformed)} malformed`;
      return { summary, outputs: folders(c.root, s.files.map((f) => f.output)), reindex: true };
    }
    case 'preview': {
      const t0 = performance.now();
      const r = await computeExactPreview(c.root, plan.recipeText, plan.recipePath, c.onProgress);
      const { docs, kept } = r.total;
      const summary = `exact figures on every one of ${n(docs)} indexed documents: kept ${n(kept.docs)} (${docs === 0 ? 0 : ((100 * kept.docs) / docs).toFixed(1)}%) in ${((performance.now() - t0) / 1000).toFixed(1)} s`;
      return { summary, outputs: [], reindex: false };
    }
    case 'decon': {
      const s = await runDecon({ ...plan.decon, ...base });
      logLines(c.log, formatDeconSummary(s));
      const files = s.tag?.files ?? [];
      const tagged = files.filter((f) => f.status === 'tagged').length;
      const summary = `${plan.decon.name}: ${s.index.sets.map((x) => `${x.name} ${n(x.items)} item(s)`).join(', ')} (${s.index.built ? 'index built' : 'index reused'}); tagged ${tagged} file(s), ${n(s.tag?.docs ?? 0)} docs${files.length > tagged ? `; ${files.length - tagged} already tagged` : ''}`;
      return { summary, outputs: folders(c.root, files.flatMap((f) => f.outputs)), reindex: true };
    }
    case 'index': {
      const r = await buildIndex(c.root, base);
      return { summary: r.summary, outputs: ['.assay'], reindex: false, indexedDocs: r.docs };
    }
  }
}
