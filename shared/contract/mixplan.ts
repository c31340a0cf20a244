// The token ledger (per source: raw → filtered → sampled → seen) and the mix planner (engine → host → app).

/** Documents, UTF-8 bytes of their texts and tokens at one stage. */
export interface StageFigures {
  docs: number;
  bytes: number;
  tokens: number;
}

export type LedgerStageName = 'raw' | 'filtered' | 'sampled' | 'seen';

/**
 * One source (the documents' `source` field, '' when absent) through a recipe. `raw`: every document of the source
 * in the recipe's streams; `filtered`: what the include/exclude rules (dedupe attributes included), span replacement
 * and min_text_length keep; `sampled`: what the recipe's sampling keeps of that (`assay.sample`, or Dolma's
 * `random_number_v1` include threshold, recognised as sampling); `seen`: sampled × repeat (copies `assay mix`
 * writes) × epochs. A document in two streams counts in each, as the mixer writes it twice.
 */
export interface SourceTokenLedger {
  source: string;
  raw: StageFigures;
  filtered: StageFigures;
  sampled: StageFigures;
  seen: StageFigures;
  /** sampled ÷ filtered tokens (1 without sampling). */
  sampleRate: number;
  /** Copies written per kept document (`assay.repeat`, 1 without). */
  repeat: number;
  /** seen tokens ÷ Σ seen tokens over all sources. */
  share: number;
  /** Tokens each rule removes from this source, in recipe order (sequential: the first rule that drops a document). */
  lostByRule: { rule: number; label: string; docs: number; tokens: number }[];
}

export interface TokenLedgerResult {
  sources: SourceTokenLedger[];
  total: Record<LedgerStageName, StageFigures>;
  /** Training epochs applied on top of the recipe's repeats (`--epochs`, default 1). */
  epochs: number;
  /** As in PreviewResult: exact where every counted document has a tokenizer count. */
  tokens: { kind: 'exact' | 'estimate' | 'partial'; tokenizer?: string; note: string };
  elapsedMs: number;
}

/** Token budget (seen tokens) and target share per source; the planner sets each source's sample fraction and repeat. */
export interface PlanRequest {
  budget: number;
  targets: Record<string, number>;
  /** Most copies of a document (default 1: never upsample). */
  maxRepetitions?: number;
  /** Largest share any single source may take (default 1). */
  maxSourceFraction?: number;
  /** Seed written into the recipe's `assay.sample.seed` (default: the recipe's own, else 0). */
  seed?: number;
}

export type PlanResult =
  | {
      feasible: true;
      /** The recipe with each stream's `assay.sample` / `assay.repeat` written (YAML, comments kept). */
      recipe: string;
      sources: { source: string; fraction: number; repeat: number; seenTokens: number; share: number; target: number }[];
      ledger: TokenLedgerResult;
    }
  | {
      feasible: false;
      /** The binding source and why, e.g. "books: needs 9.1e8 tokens, has 4.2e8 filtered × max_repetitions 2 = 8.4e8". */
      source: string;
      reason: string;
    };
