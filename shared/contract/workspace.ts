// Workspace, catalogue, document paging and document detail shapes shared by the host and the app.
import type { CompareQuery, DocumentChange } from './compare.js';
import type { ErrorPayload } from './index.js';
import type { JobKind } from './jobs.js';
import type { Histogram, SampleBucket } from './preview.js';

export interface AttributeKeyInfo {
  /** Attribute name as written in attribute files, e.g. `gopher_v1__word_count`. */
  key: string;
  /** The attribute set (folder under attributes/). */
  set: string;
  kind: 'document' | 'spans';
  /** Documents that have the key. */
  docs: number;
  spans: number;
  min: number | null;
  max: number | null;
  quantiles: { p: number; value: number }[];
  /** The tagger that writes it, when it is a known one, and its description. */
  tagger?: string;
  description?: string;
}

export interface SourceInfo {
  source: string;
  docs: number;
  files: number;
  bytes: number;
  /** Token count: exact when `tokensExact`, else an estimate (⌈bytes/4⌉ per document until a tokenizer count exists). */
  tokens: number;
  tokensExact?: boolean;
}

export interface IndexStatus {
  built: boolean;
  /** Documents indexed; 0 when not built. */
  docs: number;
  builtAt?: string;
  stale: boolean;
  schemaVersion: number;
}

export interface WorkspaceInfo {
  root: string;
  name: string;
  sources: SourceInfo[];
  files: { path: string; docs: number; bytes: number }[];
  attributes: AttributeKeyInfo[];
  index: IndexStatus;
  /** Recipe files (relative paths) found in the workspace. */
  recipes: string[];
  /**
   * Every config file found in the workspace with the job kinds it can run, recognised by its schema
   * (not its folder): a mixer recipe with an `assay: {tag: …}` preset is both `mix` and `tag`.
   */
  configs: { path: string; kinds: JobKind[] }[];
}

/** A starter the app can offer: a config of one kind, rendered for this workspace by `templates.render`. */
export interface ConfigTemplate {
  id: string;
  kind: JobKind;
  title: string;
  description: string;
}

/** Per-workspace settings the user chose in the app (stored in `.assay/settings.json`). */
export interface WorkspaceSettings {
  /** Environment variables a recipe's `${oc.env:NAME}` may read in the app; any other resolves as unset. */
  envAllowList: string[];
}

/** What `jobs.check` found: `ok` or the error `jobs.start` would refuse with (same code, message, file/line/field). */
export interface JobCheck {
  ok: boolean;
  error?: ErrorPayload;
}

export interface ExportResult {
  /** Workspace-relative path written. */
  path: string;
  rows: number;
  bytes: number;
}

export type Fate = 'kept' | 'dropped' | 'outside';

export interface DocumentQuery {
  offset: number;
  limit: number;
  /** When set, rows carry their fate under this recipe, and `fate`/`droppedBy`/`redacted`/`bucket` filters apply. */
  recipeText?: string;
  fate?: Fate;
  droppedBy?: number;
  /**
   * true: only documents the recipe keeps and whose output text differs from their text because a
   * span_replacement rule replaced something; false: only documents that are not (any fate).
   */
  redacted?: boolean;
  /** Only kept documents whose text this span_replacement rule (recipe index) changed. */
  redactedBy?: number;
  /** Only the documents of one preview bucket (what `preview.samples` pages); rule -1 with `kept` = every kept document. */
  bucket?: { rule: number; bucket: SampleBucket };
  source?: string;
  /** Attribute ranges: documents whose value for `key` lies in [min, max] (document-level value or first span score). */
  ranges?: { key: string; min?: number; max?: number }[];
  /** Explicit ids (e.g. a preview sample bucket). */
  ids?: string[];
  sort?: { column: string; desc: boolean };
  /** Extra attribute keys to return as columns. */
  columns?: string[];
  /** Full-text search over the indexed texts (the schema's `search`); combinable with every other filter. */
  search?: string;
  /** Compare `recipeText` with another recipe: rows carry their change, and `change`/`group` keep only changed ones. */
  compare?: CompareQuery;
}

export interface DocumentRow {
  id: string;
  source: string;
  file: string;
  line: number;
  bytes: number;
  chars: number;
  /** Token count: exact when `tokensExact`, else an estimate (⌈bytes/4⌉ until a tokenizer count exists). */
  tokens: number;
  tokensExact?: boolean;
  fate?: Fate;
  /** For a dropped row: the dropping rule's reason, naming the failing sub-rule where the tagger records one. */
  reason?: string;
  droppedBy?: number;
  /** Kept documents whose output text differs from their text: the span_replacement rules (recipe indexes) that replaced characters. */
  redactedBy?: number[];
  values: Record<string, number | string | boolean | null>;
  /** First 200 characters of the text. */
  snippet: string;
  /** Under `compare`: how its fate moved from the old recipe to `recipeText` (absent when it did not). */
  change?: DocumentChange;
}

export interface DocumentPage {
  total: number;
  offset: number;
  rows: DocumentRow[];
}

export interface DocumentSpan {
  set: string;
  key: string;
  /** UTF-16 offsets into `text` (converted from Dolma's code points for the UI). */
  start: number;
  end: number;
  score: number;
}

export interface DocumentDetail {
  id: string;
  source: string;
  file: string;
  line: number;
  text: string;
  metadata: Record<string, unknown>;
  spans: DocumentSpan[];
  /** Document-level attribute values (single span covering the document, or scalars). */
  values: Record<string, unknown>;
  /** With `search`: the matched ranges in `text` (UTF-16 offsets), for highlighting. */
  matches?: { start: number; end: number }[];
}

export type { Histogram };
