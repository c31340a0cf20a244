// The contract between the mixer and its two filter languages (JSONPath, jq).

/** A JSON value as the mixer holds it after JSON.parse. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export type FilterSyntax = 'jsonpath' | 'jq';

/** How the mixer uses a rule: include = keep if any include matches; exclude = drop if any exclude matches. */
export type RuleRole = 'include' | 'exclude';

/**
 * One compiled include/exclude expression. `evaluate` answers, for each document of a batch,
 * whether the expression *matches* under Dolma's rules for its syntax and role:
 * JSONPath — the path finds anything (spec §3.2); jq include — ≥1 output and all truthy,
 * jq exclude — ≥1 output and any truthy (spec §3.4).
 * Throws FilterEvalError (naming the batch index) when a document makes the expression fail.
 */
export interface CompiledRule {
  readonly expr: string;
  readonly syntax: FilterSyntax;
  readonly role: RuleRole;
  evaluate(docs: readonly Json[]): boolean[];
}

/**
 * A span-replacement selector (spec §3.3): per document, null when nothing is found,
 * the single result when there is one, an array of results when there are several.
 */
export interface CompiledSelector {
  readonly expr: string;
  readonly syntax: FilterSyntax;
  select(docs: readonly Json[]): Json[];
}

/**
 * A document made an expression fail; `index` is its position in the batch. `count` > 1 when the
 * failure covers the `count` documents from `index` on together (a jq batch that ran out of time):
 * retrying them one by one would cost a budget each.
 */
export class FilterEvalError extends Error {
  override readonly name = 'FilterEvalError';
  constructor(
    readonly index: number,
    readonly expr: string,
    message: string,
    readonly count = 1,
  ) {
    super(message);
  }
}

/** An expression that does not parse, uses a forbidden construct, or is otherwise unusable. */
export class FilterCompileError extends Error {
  override readonly name = 'FilterCompileError';
  constructor(
    readonly expr: string,
    message: string,
  ) {
    super(message);
  }
}
