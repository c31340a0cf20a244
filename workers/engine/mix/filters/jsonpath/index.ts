// Public face of the JSONPath filter language: compile rules and span selectors for the mixer.

/*
 * Semantics follow Dolma's jsonpath-rust 0.3 (spec §3.2–3.3). Where we differ, and why:
 *  - Our own evaluator, not jsonpath-plus: jsonpath-plus applies `[?()]` to children, needs its
 *    script evaluator for filters, reads JS properties (`$.arr.length`, `$.str[0]`), has no
 *    negative indexes, and overflows the stack on `..` over documents ~2,000 levels deep.
 *  - A missing or ambiguous comparison operand makes every comparison false, `!=`/`nin`/`noneOf`
 *    included (jsonpath-rust 0.3.0 matched everything there, the bug behind Dolma's guard idiom).
 *  - `< <= > >=` are false unless both sides are numbers; numbers compare numerically, so JSON
 *    `1` satisfies `>= 1.0` (the fixture's unverified case goes the other way; spec says numeric).
 *  - Superset syntax: negative indexes, "double quotes", RFC 9535 slices (incl. negative steps),
 *    `..[…]`, unions mixing names/indexes/slices, `?expr` without parentheses.
 *  - Refused syntax: `!a || b` (0.3.5 reads it as `!(a || b)`; write parentheses), a bare literal
 *    as a condition, `length()`, and a non-literal right side of `~=`.
 *  - Quoted strings are unescaped JSON-style (0.3 kept the raw text); `~=` regex text stays raw.
 *  - `~=` runs on RE2 (re2js, linear time) with Rust regex's Unicode classes (regex.ts).
 *  - Limits: 64 KiB expressions, nesting 128, 256 general segments, 10 M visited nodes per document.
 */

import {
  FilterEvalError,
  type CompiledRule,
  type CompiledSelector,
  type Json,
  type RuleRole,
} from '../types.js';
import { compilePath, EvalBudgetError, type CompiledPath } from './evaluate.js';
import { parseJsonPath } from './parse.js';

export type * from './ast.js';
export { plainStep, plainSteps } from './ast.js';
export { parseJsonPath, MAX_GENERAL_SEGMENTS } from './parse.js';
export { formatJsonPath } from './format.js';
export { compilePath, MAX_EVAL_STEPS, type CompiledPath } from './evaluate.js';
export { MAX_EXPR_BYTES, MAX_NESTING } from './scanner.js';
export { compileLinearRegex, MAX_REGEX_LENGTH, type LinearRegex } from './regex.js';
export { compareValues, jsonEqual } from './predicate.js';

/** Parse and compile an expression; throws FilterCompileError with the offending offset. */
export function compileJsonPath(expr: string): CompiledPath {
  return compilePath(parseJsonPath(expr), expr);
}

/**
 * An include/exclude rule. Under Dolma's JSONPath semantics the role does not change matching:
 * a rule matches when its path finds at least one node (spec §3.2); the mixer applies the role.
 * Missing data never throws — it simply does not match.
 */
export function compileJsonPathRule(expr: string, role: RuleRole): CompiledRule {
  const path = compileJsonPath(expr);
  return {
    expr,
    syntax: 'jsonpath',
    role,
    evaluate(docs: readonly Json[]): boolean[] {
      const out: boolean[] = [];
      let i = 0;
      try {
        for (; i < docs.length; i++) out.push(path.matches(docs[i] as Json));
      } catch (e) {
        throw asEvalError(e, i, expr);
      }
      return out;
    },
  };
}

/** A span-replacement selector (spec §3.3): null when nothing is found, the node when one, else an array. */
export function compileJsonPathSelector(expr: string): CompiledSelector {
  const path = compileJsonPath(expr);
  return {
    expr,
    syntax: 'jsonpath',
    select(docs: readonly Json[]): Json[] {
      const out: Json[] = [];
      let i = 0;
      try {
        for (; i < docs.length; i++) {
          const found = path.findAll(docs[i] as Json);
          out.push(found.length === 0 ? null : found.length === 1 ? (found[0] as Json) : found);
        }
      } catch (e) {
        throw asEvalError(e, i, expr);
      }
      return out;
    },
  };
}

/** Only resource exhaustion can fail an evaluation; anything else is a bug and propagates as is. */
function asEvalError(e: unknown, index: number, expr: string): unknown {
  if (e instanceof EvalBudgetError) return new FilterEvalError(index, expr, e.message);
  if (e instanceof RangeError) return new FilterEvalError(index, expr, `evaluation ran out of stack: ${e.message}`);
  return e;
}
