// Removal ledgers and `locate` (engine → host → app): where each input document of a mix went, and its tokens.

/**
 * A document's fate in one mix run. `excluded`: the stream's exclude rule `rule` fired first; `no_include`: the
 * stream has include rules and none matched; `min_text_length`: kept by the filter, too short after replacement;
 * `not_sampled`: kept by the rules, not drawn by the stream's `assay.sample`; `removed`: taken out later by `assay remove` (the request is in that version's manifest).
 */
export type LedgerFateKind = 'kept' | 'excluded' | 'no_include' | 'min_text_length' | 'not_sampled' | 'removed';

export interface LedgerFate {
  kind: LedgerFateKind;
  /** For `excluded`: the rule's position in the stream's `filter.exclude` (0-based) and its text as written. */
  exclude: number | null;
  rule: string | null;
  /** One line for people: "dropped by exclude[2]: $.attributes[?(@.x > 0.5)]". */
  message: string;
}

/** The memmap file and token range `[start, end)` a tokens run wrote for a kept document. */
export interface TokenRange {
  npy: string;
  start: number;
  end: number;
  /** The tokens run's ledger that recorded it (`<destination>/.assay/ledger.sqlite`). */
  ledger: string;
}

/** One input document as one mix run's ledger recorded it, with its tokens when a tokens run consumed the shard. */
export interface LocatedDocument {
  /** The mix ledger (`<output>/.assay/ledger.sqlite`) and the output folder it belongs to. */
  ledger: string;
  output: string;
  id: string;
  source: string;
  url: string | null;
  /** sha256 (hex) of the input text, before span replacement. */
  sha256: string;
  input: { file: string; line: number };
  stream: string;
  fate: LedgerFate;
  /** Characters (code points) span replacement removed or replaced; 0 when none. */
  replacedChars: number;
  /** Where the kept document is: output shard and 1-based line (of its first copy when `assay.repeat` wrote several). */
  shard: { file: string; line: number } | null;
  /** Lines written for it: 1, or `assay.repeat`'s copies; 0 when not kept. */
  copies: number;
  tokens: TokenRange[];
}

/** What to look for: exactly one key. `contains` scans texts (bounded by `limit` matches). */
export type LocateQuery = { id: string } | { url: string } | { textHash: string } | { contains: string };

export interface LocateResult {
  /** Every mix ledger searched (a workspace with none → empty, and the CLI says so). */
  ledgers: string[];
  matches: LocatedDocument[];
  /** true when `limit` cut the matches short. */
  truncated: boolean;
}
