// Workspace, catalogue, document paging and document detail shapes shared by the host and the app.
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
  tokens: number;
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
}

export interface DocumentRow {
  id: string;
  source: string;
  file: string;
  line: number;
  bytes: number;
  chars: number;
  tokens: number;
  fate?: Fate;
  droppedBy?: number;
  /** Kept documents whose output text differs from their text: the span_replacement rules (recipe indexes) that replaced characters. */
  redactedBy?: number[];
  values: Record<string, number | string | boolean | null>;
  /** First 200 characters of the text. */
  snippet: string;
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
}

export type { Histogram };
