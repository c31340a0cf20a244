// The one typed contract between the app and the engine host: every request's params schema and result type.
import { z } from 'zod';
import { compareAgainst, compareQuery, type RecipeCompareResult } from './compare.js';
import { jobStart, type JobInfo } from './jobs.js';
import type { DeconItemText, DeconReport } from './decon.js';
import type { LocateResult } from './ledger.js';
import type { PlanResult, TokenLedgerResult } from './mixplan.js';
import type { RunTokenLedger } from './run-ledger.js';
import { locateQuery, type RunManifestView } from './runs.js';
import { safeSegment } from '../segment.js';
import { executorSettings, type ExecutorSettings } from './slurm.js';
import type { SourceFile } from './sources.js';
import type { ExplainResult, Histogram, LintIssue, PreviewResult, SampleBucket } from './preview.js';
import type { ConfigTemplate, DocumentDetail, DocumentPage, ExportResult, JobCheck, WorkspaceInfo, WorkspaceSettings } from './workspace.js';

/** Paths from the app are workspace-relative; the host resolves and refuses any that escape the workspace. */
const relPath = z.string().min(1).max(4096);
const recipeText = z.string().max(4 * 1024 * 1024);

/** Training epochs over what the mix writes (the ledger's seen = sampled × repeat × epochs). */
const epochs = z.number().positive().max(1e6);

/** The planner's request (PlanRequest in mixplan.ts). */
const planRequest = z
  .object({
    budget: z.number().positive().max(1e18),
    targets: z.record(z.string().max(1000), z.number().min(0).max(1)),
    maxRepetitions: z.number().int().min(1).max(1e6).optional(),
    maxSourceFraction: z.number().gt(0).max(1).optional(),
    seed: z.number().int().min(0).optional(),
  })
  .strict();

const sampleBucket = z.enum(['alone', 'exclusive', 'sequential', 'kept']);

const documentQuery = z
  .object({
    offset: z.number().int().min(0),
    limit: z.number().int().min(1).max(1000),
    recipeText: recipeText.optional(),
    fate: z.enum(['kept', 'dropped', 'outside']).optional(),
    droppedBy: z.number().int().min(0).optional(),
    redacted: z.boolean().optional(),
    redactedBy: z.number().int().min(0).optional(),
    bucket: z.object({ rule: z.number().int().min(-1), bucket: sampleBucket }).strict().optional(),
    source: z.string().optional(),
    ranges: z.array(z.object({ key: z.string(), min: z.number().optional(), max: z.number().optional() }).strict()).max(32).optional(),
    ids: z.array(z.string()).max(10000).optional(),
    sort: z.object({ column: z.string(), desc: z.boolean() }).strict().optional(),
    columns: z.array(z.string()).max(64).optional(),
    /** Full-text search over the indexed texts (words, "a phrase", prefix*); combinable with every other filter. */
    search: z.string().max(1000).optional(),
    compare: compareQuery.optional(),
  })
  .strict();

/** The same filters as a page, without paging: what an export writes. */
const exportQuery = documentQuery.omit({ offset: true, limit: true });

export const methods = {
  'workspace.info': { params: z.object({}).strict(), result: {} as WorkspaceInfo },
  'recipe.read': { params: z.object({ path: relPath }).strict(), result: {} as { path: string; text: string } },
  /**
   * `expect`: the file's text as the caller last read or wrote it; the write is refused (CONFLICT) when the file now
   * holds something else, so a change made on disk since is never overwritten unasked. A missing file is written.
   * `create`: refused (CONFLICT) when the file exists (a new name that is taken).
   */
  'recipe.write': { params: z.object({ path: relPath, text: recipeText, expect: recipeText.optional(), create: z.boolean().optional() }).strict(), result: {} as { path: string; bytes: number } },
  /** `exact`: every indexed document, also where live previews of a large index run on a sample (PreviewResult.sample). */
  'preview.run': { params: z.object({ recipeText, ids: z.boolean().optional(), exact: z.boolean().optional() }).strict(), result: {} as PreviewResult },
  /** The exact figures a finished `preview` job kept for this recipe text; null when none match the index as it is now. */
  'preview.exact': { params: z.object({ recipeText }).strict(), result: {} as PreviewResult | null },
  'preview.samples': {
    params: z
      .object({ recipeText, rule: z.number().int().min(-1), bucket: sampleBucket, offset: z.number().int().min(0), limit: z.number().int().min(1).max(1000) })
      .strict(),
    result: {} as { ids: string[]; total: number; bucket: SampleBucket },
  },
  'preview.explain': { params: z.object({ recipeText, id: z.string().min(1) }).strict(), result: {} as ExplainResult },
  /**
   * The edited recipe compared with another over the index: documents whose fate changed, grouped (stream, from → to
   * rule), per source, with `samples` ids per group. On the preview thread; a newer diff cancels an older one.
   * The changed documents themselves are `documents.page` with `compare`.
   */
  'preview.diff': {
    params: z.object({ recipeText, against: compareAgainst, samples: z.number().int().min(0).max(1000).optional() }).strict(),
    result: {} as RecipeCompareResult,
  },
  /** Per source tokens raw → filtered → sampled → seen under the recipe, from the index (on the preview thread; a newer one cancels an older). */
  'ledger.predict': { params: z.object({ recipeText, epochs: epochs.optional() }).strict(), result: {} as TokenLedgerResult },
  /** Each source's sample fraction and repeat for a budget and target shares; when feasible, the recipe text with them written. */
  'ledger.plan': { params: z.object({ recipeText, request: planRequest }).strict(), result: {} as PlanResult },
  'preview.lint': { params: z.object({ recipeText }).strict(), result: {} as LintIssue[] },
  'attributes.histogram': { params: z.object({ key: z.string().min(1), bins: z.number().int().min(1).max(200) }).strict(), result: {} as Histogram },
  'documents.page': { params: documentQuery, result: {} as DocumentPage },
  'documents.get': { params: z.object({ id: z.string().min(1), search: z.string().max(1000).optional() }).strict(), result: {} as DocumentDetail },
  /** Writes the filtered table (every row, not just the page) to a workspace file, atomically. */
  'documents.export': {
    params: z.object({ query: exportQuery, format: z.enum(['csv', 'jsonl']), path: relPath }).strict(),
    result: {} as ExportResult,
  },
  /** Watch a workspace file: the host emits `file.changed` for it within a second of a change on disk. */
  'recipe.watch': { params: z.object({ path: relPath }).strict(), result: {} as { path: string } },
  'recipe.unwatch': { params: z.object({ path: relPath }).strict(), result: {} as { path: string } },
  /** Starter configs and recipes for this workspace (presets and the attribute catalogue, globs already right). */
  'templates.list': { params: z.object({}).strict(), result: {} as ConfigTemplate[] },
  'templates.render': { params: z.object({ id: z.string().min(1).max(200) }).strict(), result: {} as { id: string; text: string; suggestedPath: string } },
  'settings.get': { params: z.object({}).strict(), result: {} as WorkspaceSettings },
  'settings.set': { params: z.object({ envAllowList: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/).max(200)).max(200) }).strict(), result: {} as WorkspaceSettings },
  /** The executor the Runs tab last used in this workspace (local or Slurm, with the Slurm options). */
  'executor.get': { params: z.object({}).strict(), result: {} as ExecutorSettings },
  'executor.set': { params: executorSettings, result: {} as ExecutorSettings },
  /** Everything `jobs.start` checks (config parse, schema, workspace paths), without starting anything or writing a file. */
  'jobs.check': { params: jobStart, result: {} as JobCheck },
  'jobs.start': { params: jobStart, result: {} as JobInfo },
  /** Parquet and WARC files in the workspace (outside its data folders), for the Sources dialog to import or extract. */
  'sources.list': { params: z.object({}).strict(), result: {} as SourceFile[] },
  'jobs.cancel': { params: z.object({ jobId: z.string().min(1) }).strict(), result: {} as JobInfo },
  'jobs.list': { params: z.object({}).strict(), result: {} as JobInfo[] },
  /** A run's manifest (by its output folder, manifest file or an output file) with the chain of runs it consumed. */
  'runs.manifest': { params: z.object({ path: relPath }).strict(), result: {} as RunManifestView },
  /** Searches the removal ledger(s) in a run's output folder: where each matching input document went, and why. */
  'runs.locate': {
    params: z.object({ path: relPath, query: locateQuery, limit: z.number().int().min(1).max(1000).optional() }).strict(),
    result: {} as LocateResult,
  },
  /** A finished mix output's token ledger: its removal ledger, manifest and the tokens run that read it (exact where counted). */
  'runs.ledger': { params: z.object({ path: relPath, epochs: epochs.optional() }).strict(), result: {} as RunTokenLedger },
  /**
   * The contamination report of decon attributes `<name>__decon__*` in `attributes/<set>/` (set default: name) over the
   * indexed documents files that have them, as `assay decon-report` makes it; `write` also saves it (and lists it in
   * the folder's run manifest).
   */
  'decon.report': {
    params: z.object({ name: safeSegment(), set: safeSegment().optional(), write: z.boolean().optional(), top: z.number().int().min(1).max(100).optional() }).strict(),
    result: {} as DeconReport & { written: string[] },
  },
  /** Eval item texts for `"<set>:<item_id>"` refs (a document's `__decon__hits`), from the items file of the attribute set its documents file maps to. */
  'decon.items': {
    params: z.object({ file: relPath, set: safeSegment(), refs: z.array(z.string().min(1).max(4096)).max(200) }).strict(),
    result: {} as DeconItemText[],
  },
} as const;

export type Method = keyof typeof methods;
export type Params<M extends Method> = z.input<(typeof methods)[M]['params']>;
export type Result<M extends Method> = (typeof methods)[M]['result'];
