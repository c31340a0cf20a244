// The token ledger of a finished mix run (`assay ledger OUTPUT_DIR`, the run page): which figures are counted and which estimated.
import type { LedgerStageName, TokenLedgerResult } from './mixplan.js';

/** Where one stage's token figures come from. */
export interface StageTokenSource {
  /** Counted by a tokenizer (a tokens run over this output), rather than ⌈UTF-8 bytes / 4⌉ per document. */
  exact: boolean;
  /** In words: "removal ledger (input texts)", "manifest (output texts)", "tokens run tok/v1 (gpt2)". */
  from: string;
}

/**
 * The ledger a run produced, from its removal ledger (every input document's source, fate, UTF-8 bytes and
 * copies written), its manifest (documents and tokens written per source) and, when one consumed the output,
 * a tokens run's exact counts. Raw and filtered are of the input texts (before span replacement); sampled and
 * seen of what was written. `tokens.kind` is 'partial' when only some stages are exact.
 */
export interface RunTokenLedger extends TokenLedgerResult {
  /** The output folder (absolute from the engine; workspace-relative from the host). */
  output: string;
  stage: 'mix' | 'remove';
  tokenSources: Record<LedgerStageName, StageTokenSource>;
  /** The tokens run whose counts are used (its destination), or null. */
  tokensRun: string | null;
  /** Caveats worth printing: a tokens run that read other outputs too, documents removed by request. */
  notes: string[];
}
