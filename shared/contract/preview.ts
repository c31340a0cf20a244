// Result shapes of the attribute index's preview, explain, lint and histogram queries (engine → host → app).

/** Documents and tokens, overall. */
export interface Count {
  docs: number;
  tokens: number;
  /**
   * A sampled preview's figures are estimates for the whole index (the sample's counts scaled up); this
   * is the confidence interval of each, at `PreviewResult.sample.level`. Absent when the figure is exact.
   */
  ci?: { docs: [number, number]; tokens: [number, number] };
}

/** A count split per `source` (the document's `source` field; '' when absent). */
export interface CountBySource extends Count {
  bySource: Record<string, Count>;
}

/** Where a rule was evaluated: compiled to column predicates, or exactly on stored attribute JSON. */
export type EvalPath = 'compiled' | 'exact';

/** `sample`: the stream's `assay.sample` — documents the rules keep but the deterministic draw does not. */
export type RuleKind = 'include' | 'exclude' | 'min_text_length' | 'span_replacement' | 'sample';

/** A numeric comparison found in a rule, swept over 50 thresholds. */
export interface ThresholdSweep {
  /** Attribute key (or metadata path) compared. */
  key: string;
  op: '<' | '<=' | '>' | '>=' | '==' | '!=';
  /** The threshold written in the recipe. */
  threshold: number;
  /** Recipe text range of the number, so the UI can rewrite it (1-based line/column, end exclusive). */
  location?: { line: number; column: number; endColumn: number };
  /** 50 candidate thresholds (ascending) and, for each, the fraction of the stream's documents the rule alone would drop. */
  thresholds: number[];
  dropFraction: number[];
  /** Sampled previews: each drop fraction's confidence interval. */
  dropFractionCi?: [number, number][];
}

export interface PreviewRule {
  /** Position among all rules of the recipe, in recipe order (0-based). */
  index: number;
  stream: string;
  kind: RuleKind;
  /** The expression as written (for span_replacement: the span selector; for min_text_length: the bound). */
  expression: string;
  syntax: 'jsonpath' | 'jq' | 'none';
  path: EvalPath;
  /** Why the exact path was needed (unsupported construct), when it was. */
  pathReason?: string;
  /** 1-based line of the rule in the recipe text, when known. */
  line?: number;
  /** Dropped by this rule alone, ignoring all others. */
  alone: CountBySource;
  /** Dropped by this rule and by no other rule of its stream. */
  exclusive: CountBySource;
  /** Dropped by this rule when rules apply in recipe order (first rule that drops gets the document). */
  sequential: CountBySource;
  /** Attribute keys the rule reads that no indexed document has. */
  missingKeys: string[];
  sweep?: ThresholdSweep;
  /** span_replacement rules: characters (code points) removed or replaced in kept documents, and documents touched. */
  replacement?: { chars: number; docs: number; ci?: { chars: [number, number]; docs: [number, number] } };
  /** Short label: the rule's YAML comment line when it has one, else key, comparator and threshold. */
  label?: string;
  /**
   * The per-sub-rule value attributes behind a 0/1 verdict flag (e.g. DataTrove's `gopher_repetition__kept`):
   * what the histograms offer instead of the flag.
   */
  subRules?: SubRule[];
}

/** One of a tagger's sub-rules (DataTrove's filters write a value and a `_fail` flag per sub-rule). */
export interface SubRule {
  /** The value attribute, e.g. `fineweb__gopher_repetition__top_4_gram_frac`. */
  key: string;
  /** Its `_fail` flag attribute, when the tagger writes one. */
  failKey?: string;
  label: string;
  op?: '<' | '<=' | '>' | '>=' | '==' | '!=';
  /** The threshold the tagger applied (from its recorded options or defaults), when known. */
  threshold?: number;
}

export interface PreviewTotals extends CountBySource {
  kept: CountBySource;
  dropped: CountBySource;
}

export interface PreviewResult {
  total: PreviewTotals;
  rules: PreviewRule[];
  /** Every figure is computed over every indexed document (no sampling). */
  exact: boolean;
  /**
   * Set when the preview ran on a uniform sample of the index (`exact` false): `docs` of `of` documents,
   * each drawn with probability `fraction` by `seed`; every figure is an estimate with an interval at `level`.
   */
  sample?: { docs: number; of: number; fraction: number; seed: number; level: number };
  /**
   * How token figures were obtained: `exact` when every document has a tokenizer count, `estimate` when none
   * has (⌈bytes/4⌉), `partial` when some have. Document counts are exact either way (`exact`).
   */
  tokens: { kind: 'exact' | 'estimate' | 'partial'; tokenizer?: string; note: string };
  /** Documents in the index that match no stream's `documents` globs. */
  outsideStreams: number;
  /** Sampled previews: the interval of `outsideStreams`. */
  outsideStreamsCi?: [number, number];
  elapsedMs: number;
  /** Only when asked for. */
  keptIds?: string[];
}

export type SampleBucket = 'alone' | 'exclusive' | 'sequential' | 'kept';

export interface RuleVerdict {
  index: number;
  kind: RuleKind;
  expression: string;
  /** `drop`: this rule drops the document; `keep`: it does not; `skipped`: not reached (earlier drop) — still evaluated for information. */
  verdict: 'drop' | 'keep';
  /** Attribute values the rule read, as the mixer saw them (undefined → key absent). */
  values: { key: string; value: unknown }[];
  path: EvalPath;
  /** Failing sub-rules behind a verdict flag, with value and threshold, e.g. `top 4-gram fraction 0.31 > 0.20`. */
  because?: { key: string; label: string; value: number | null; op?: string; threshold?: number; text: string }[];
}

export interface ExplainResult {
  id: string;
  source: string;
  file: string;
  line: number;
  stream: string | null;
  fate: 'kept' | 'dropped' | 'outside';
  /** The first rule in recipe order that drops it. */
  droppedBy?: number;
  /** Human sentence, e.g. "dropped by rule 3: `gopher_v1__word_count` = 41 < 50". */
  reason: string;
  rules: RuleVerdict[];
  text: string;
  /** Text the mixer writes (after span replacement); undefined when dropped. */
  output?: string;
  /** Replaced ranges in `text`, UTF-16 offsets (for the UI), with the rule that replaced them. */
  replaced: { start: number; end: number; rule: number; replacement: string }[];
}

export interface LintIssue {
  severity: 'warning' | 'error';
  rule?: number;
  line?: number;
  code: 'missing-key' | 'drops-nothing' | 'drops-everything' | 'shadowed' | 'no-spans' | 'syntax' | 'outside-workspace';
  /** 1-based column range on `line`, when known. */
  column?: number;
  endColumn?: number;
  message: string;
}

export interface Histogram {
  key: string;
  /** Documents having the key / all documents. */
  present: number;
  total: number;
  min: number;
  max: number;
  /** `bins + 1` ascending edges; counts[i] covers [edges[i], edges[i+1]) (last bin closed). */
  edges: number[];
  counts: number[];
}

/** A document's fate in one stream of a recipe: kept, dropped by rule `rule` (recipe order, as in explain), or not in the stream. */
export interface DiffSide {
  fate: 'kept' | 'dropped' | 'outside';
  rule?: number;
  label?: string;
}

/** How a document's fate moved between two recipes; `rule changed`: dropped by both, by rules that are not the same rule. */
export type FateChange = 'kept→dropped' | 'dropped→kept' | 'rule changed' | 'outside→kept' | 'outside→dropped' | 'kept→outside' | 'dropped→outside';

/** The documents of one stream whose fate moved the same way (same change, same rules on both sides). */
export interface DiffGroup extends CountBySource {
  stream: string;
  change: FateChange;
  from: DiffSide;
  to: DiffSide;
  /** Up to `samples` ids, in index order. */
  sampleIds: string[];
}

/** Two recipes over one index: every document whose fate differs, grouped, counted per rule and per source. */
export interface RecipeDiffResult {
  /** Documents in the index. */
  docs: number;
  /** (stream, document) pairs whose fate changed. */
  changed: Count;
  byChange: Partial<Record<FateChange, Count>>;
  /** Per source: changes of each kind. */
  bySource: Record<string, Partial<Record<FateChange, number>>>;
  groups: DiffGroup[];
  /** Kept documents under each recipe (a document kept by two streams counts twice, as the mixer writes it twice). */
  kept: { old: Count; new: Count };
  /** How rules were paired: old rule → new rule (same expression, else same kind and place in the stream). */
  ruleMap: { old: number; new: number }[];
  elapsedMs: number;
}
