// The typed syntax tree of Dolma's JSONPath subset, shared by the evaluator and the recipe compiler.

import type { Json } from '../types.js';

/**
 * A path: a start node followed by segments. Rules and selectors always start at the document
 * (`'root'`, written `$`; Dolma's stray `$@.` prefix parses to the same thing). Inside filters a
 * path may also start at the node under test (`'current'`, written `@`).
 */
export interface PathExpr {
  readonly kind: 'path';
  readonly start: 'root' | 'current';
  readonly segments: readonly Segment[];
}

/**
 * One step of a path. `child` applies its selectors to the current node (`.k`, `[0]`, `['a','b']`);
 * `descendant` applies them to the node and every node below it, in document pre-order (`..k`).
 * A segment with several selectors is a union; their results are concatenated in selector order.
 */
export interface Segment {
  readonly kind: 'child' | 'descendant';
  readonly selectors: readonly Selector[];
}

export type Selector = NameSelector | IndexSelector | WildcardSelector | SliceSelector | FilterSelector;

/** An object member (`.key`, `['key']`, `["key"]`); never matches arrays or inherited properties. */
export interface NameSelector {
  readonly kind: 'name';
  readonly name: string;
}

/** An array element (`[n]`); a negative index counts from the end. */
export interface IndexSelector {
  readonly kind: 'index';
  readonly index: number;
}

/** Every element of an array or member value of an object (`*`, `[*]`). */
export interface WildcardSelector {
  readonly kind: 'wildcard';
}

/** `[start:end:step]` with RFC 9535 bounds; `null` means "omitted". `step` is never 0. */
export interface SliceSelector {
  readonly kind: 'slice';
  readonly start: number | null;
  readonly end: number | null;
  readonly step: number | null;
}

/**
 * `[?(expr)]` with jsonpath-rust semantics: on an array it tests each element; on any other node
 * it tests the node itself and yields it when the test holds.
 */
export interface FilterSelector {
  readonly kind: 'filter';
  readonly test: FilterExpr;
}

export type FilterExpr = OrExpr | AndExpr | NotExpr | ExistsExpr | CompareExpr;

/** `a || b || …` (at least two operands). */
export interface OrExpr {
  readonly kind: 'or';
  readonly operands: readonly FilterExpr[];
}

/** `a && b && …` (at least two operands). */
export interface AndExpr {
  readonly kind: 'and';
  readonly operands: readonly FilterExpr[];
}

export interface NotExpr {
  readonly kind: 'not';
  readonly operand: FilterExpr;
}

/** A bare path used as a condition: true when it finds at least one node, whatever its value. */
export interface ExistsExpr {
  readonly kind: 'exists';
  readonly path: PathExpr;
}

export type CompareOp =
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | '~='
  | 'in'
  | 'nin'
  | 'size'
  | 'anyOf'
  | 'noneOf'
  | 'subsetOf';

/**
 * `left op right`. Each path operand must find exactly one node, otherwise the comparison is false.
 * For `~=` the parser guarantees `right` is a string literal holding a vetted regular expression,
 * exactly as written between the quotes (only `\'` / `\"` unescaped), so `\d` means a digit.
 */
export interface CompareExpr {
  readonly kind: 'compare';
  readonly op: CompareOp;
  readonly left: Operand;
  readonly right: Operand;
}

export type Operand = PathExpr | LiteralExpr;

/** A constant: number, string, boolean, null or an array of those. */
export interface LiteralExpr {
  readonly kind: 'literal';
  readonly value: Json;
}

/** One step of a plain path: an object key (string) or an array index (number, may be negative). */
export type PlainStep = string | number;

/** The plain step a segment stands for (a single name or index child), or undefined. */
export function plainStep(segment: Segment): PlainStep | undefined {
  const only = segment.selectors.length === 1 ? segment.selectors[0] : undefined;
  if (segment.kind !== 'child' || only === undefined) return undefined;
  if (only.kind === 'name') return only.name;
  if (only.kind === 'index') return only.index;
  return undefined;
}

/**
 * The steps of a path made only of single-name and single-index child segments (`$.a[0]['b c']`),
 * or null when the path uses anything else. Such paths find at most one node, so the evaluator
 * compiles them to direct accessors and the recipe compiler can map them to columns.
 */
export function plainSteps(path: PathExpr): PlainStep[] | null {
  const steps: PlainStep[] = [];
  for (const segment of path.segments) {
    const step = plainStep(segment);
    if (step === undefined) return null;
    steps.push(step);
  }
  return steps;
}
