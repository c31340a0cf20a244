// The tagger contract: self-describing taggers that turn one document into typed spans (Dolma §5.1).
import type { z } from 'zod';

/** What a tagger sees of a document. */
export interface TagDocument {
  /** The document's id (Dolma taggers require a string; the runtime rejects others with file:line). */
  id: string;
  text: string;
  /** `source` field, "" when absent (msgspec InputSpec default). */
  source: string;
  /** `metadata` object, {} when absent or not an object. */
  metadata: Record<string, unknown>;
  /** The whole parsed record, for taggers that read other fields. Never mutate it. */
  record: Readonly<Record<string, unknown>>;
}

/**
 * One span. Offsets are **UTF-16 code units** into `doc.text` (plain JS string indices, end
 * exclusive); the runtime converts them to Unicode code points, Dolma's unit, when it writes.
 * Scores are whatever the tagger defines — where Dolma uses Python's `len()`, use code points
 * (`cpLength` in workers/engine/text/python.ts). The runtime rounds scores to 5 decimals like Dolma.
 */
export interface TagSpan {
  start: number;
  end: number;
  /** Span type; the attribute key becomes `<experiment>__<tagger>__<type>` (non [A-Za-z0-9_] → `_`). */
  type: string;
  score: number;
  /**
   * start/end are already code points, as the runtime writes them: for a tagger that must reproduce Dolma's
   * arithmetic on another string than the text (c4_v2 counts on `text.lower()`), whose offsets can pass its end.
   */
  codePoints?: boolean;
}

export interface Tagger {
  /** Spans for one document. Must run in time linear in the text length (Dolma #123). */
  tag(doc: TagDocument): TagSpan[];
  /**
   * Attributes that are not spans (decon's hit list, an array of strings), keyed by type like spans; called right
   * after tag() on the same document, so a tagger can hand over what tag() computed.
   */
  values?(doc: TagDocument): Record<string, unknown>;
  /** Release resources (models, workers) when the run ends. */
  close?(): void | Promise<void>;
}

/** One attribute a tagger emits, for the registry listing and the app. */
export interface TaggerOutput {
  /** Span type (`*` in it stands for a family, e.g. `__label__*` for fastText labels). */
  type: string;
  /** What the score means. */
  description: string;
  /** Value range, e.g. `[0, 1]`, `≥ 0 (code points)`, `0 | 1`. */
  range: string;
  /** `document`: one span covering the text; `spans`: spans over parts of the text. */
  level: 'document' | 'spans';
}

export interface TaggerContext {
  /** Seed for taggers with randomness (`random_number_v1`); the runtime derives one per file. */
  seed: number;
  /** Directory relative option paths (blocklists, models) resolve against. */
  cwd: string;
  /**
   * Size on disk of the documents file about to be tagged, when known. Taggers that prime V8 with small texts
   * when created (dolma/warm-up.ts) skip it for small files, where it costs more than it saves.
   */
  inputBytes?: number;
}

export interface TaggerSpec<Options = Record<string, unknown>> {
  /** Registry name, Dolma's where Dolma has the tagger (`gopher_v1`, `c4_v2`, …). */
  name: string;
  /** One line for listings. */
  description: string;
  outputs: TaggerOutput[];
  /** Options schema (zod, with `.describe()` per field); omitted when the tagger has none. */
  options?: z.ZodType<Options>;
  /** Span types written as `[]` even when a document produced none (Dolma's `defaults`). */
  defaults?: string[];
  /** Build a tagger for one worker; may load models. Options are already validated. */
  create(options: Options, ctx: TaggerContext): Tagger | Promise<Tagger>;
}
