// Compiles `[?( )]` conditions to closures with Dolma's (jsonpath-rust 0.3) comparison semantics.

import { FilterCompileError, type Json } from '../types.js';
import type { CompareExpr, CompareOp, FilterExpr, Operand, PathExpr } from './ast.js';
import { compileLinearRegex } from './regex.js';
import { utf8Length } from '../../json.js';

/** Per-evaluation state: the document root (for `$…` operands) and the work counter. */
export interface EvalContext {
  readonly root: Json;
  steps: number;
}

/** A compiled condition, asked about one node. */
export type Pred = (node: Json, ctx: EvalContext) => boolean;
/** A compiled operand: its single value, or undefined when it finds no node or several. */
export type ValueFn = (node: Json, ctx: EvalContext) => Json | undefined;

/** What conditions need from the path compiler; an interface so the two modules do not import each other. */
export interface PathCompiler {
  exists(path: PathExpr): Pred;
  single(path: PathExpr): ValueFn;
}

export function compilePredicate(expr: FilterExpr, paths: PathCompiler, src: string): Pred {
  switch (expr.kind) {
    case 'or': {
      const parts = expr.operands.map((e) => compilePredicate(e, paths, src));
      const [a, b] = parts as [Pred, Pred];
      if (parts.length === 2) return (n, c) => a(n, c) || b(n, c);
      return (n, c) => parts.some((p) => p(n, c));
    }
    case 'and': {
      const parts = expr.operands.map((e) => compilePredicate(e, paths, src));
      if (parts.length === 3) {
        // The guard idiom `@.k && @.k[0] && @.k[0][2] < v` is every production rule; keep it flat.
        const [a, b, c3] = parts as [Pred, Pred, Pred];
        return (n, c) => a(n, c) && b(n, c) && c3(n, c);
      }
      const [a, b] = parts as [Pred, Pred];
      if (parts.length === 2) return (n, c) => a(n, c) && b(n, c);
      return (n, c) => parts.every((p) => p(n, c));
    }
    case 'not': {
      const inner = compilePredicate(expr.operand, paths, src);
      return (n, c) => !inner(n, c);
    }
    case 'exists':
      return paths.exists(expr.path);
    case 'compare':
      return compileCompare(expr, paths, src);
  }
}

function operandFn(operand: Operand, paths: PathCompiler): ValueFn {
  if (operand.kind === 'path') return paths.single(operand);
  const value = operand.value;
  return () => value;
}

const isScalar = (v: Json): v is string | number | boolean | null => v === null || typeof v !== 'object';

function compileCompare(e: CompareExpr, paths: PathCompiler, src: string): Pred {
  const left = operandFn(e.left, paths);
  const k = e.right.kind === 'literal' ? e.right.value : undefined;
  // Specialised forms for a literal right side: these are the shapes every Dolma rule uses.
  if (typeof k === 'number') {
    switch (e.op) {
      case '<': return (n, c) => { const l = left(n, c); return typeof l === 'number' && l < k; };
      case '<=': return (n, c) => { const l = left(n, c); return typeof l === 'number' && l <= k; };
      case '>': return (n, c) => { const l = left(n, c); return typeof l === 'number' && l > k; };
      case '>=': return (n, c) => { const l = left(n, c); return typeof l === 'number' && l >= k; };
      default:
    }
  }
  if (k !== undefined && isScalar(k) && (e.op === '==' || e.op === '!=')) {
    // For a scalar literal, strict identity is JSON equality (JS numbers: 1 === 1.0).
    return e.op === '=='
      ? (n, c) => left(n, c) === k
      : (n, c) => { const l = left(n, c); return l !== undefined && l !== k; };
  }
  if (e.op === '~=') {
    const re = typeof k === 'string' ? compileLinearRegex(k) : 'the right side of ~= must be a regex literal';
    if (typeof re === 'string') throw new FilterCompileError(src, re);
    return (n, c) => { const l = left(n, c); return typeof l === 'string' && re.test(l); };
  }
  const right = operandFn(e.right, paths);
  const op = OPS[e.op];
  return (n, c) => {
    const l = left(n, c);
    if (l === undefined) return false;
    const r = right(n, c);
    return r !== undefined && op(l, r);
  };
}

type BinaryOp = (l: Json, r: Json) => boolean;

const contains = (list: readonly Json[], v: Json): boolean => list.some((x) => jsonEqual(x, v));
const members = (r: Json): readonly Json[] | null =>
  Array.isArray(r) ? r : r !== null && typeof r === 'object' ? Object.values(r) : null;

/**
 * Both operands are present (single values) here. Wrong operand types make an operator false —
 * including the negated ones (`nin`, `noneOf`), so a malformed attribute never satisfies a rule.
 */
const OPS: Readonly<Record<Exclude<CompareOp, '~='>, BinaryOp>> = {
  '==': (l, r) => jsonEqual(l, r),
  '!=': (l, r) => !jsonEqual(l, r),
  '<': (l, r) => typeof l === 'number' && typeof r === 'number' && l < r,
  '<=': (l, r) => typeof l === 'number' && typeof r === 'number' && l <= r,
  '>': (l, r) => typeof l === 'number' && typeof r === 'number' && l > r,
  '>=': (l, r) => typeof l === 'number' && typeof r === 'number' && l >= r,
  // `in` against an object looks at its values, as jsonpath-rust does.
  in: (l, r) => { const m = members(r); return m !== null && contains(m, l); },
  nin: (l, r) => { const m = members(r); return m !== null && !contains(m, l); },
  // jsonpath-rust measures strings with Rust's `len()`: UTF-8 bytes.
  size: (l, r) =>
    typeof r === 'number' &&
    (typeof l === 'string' ? utf8Length(l) === r
      : Array.isArray(l) ? l.length === r
      : l !== null && typeof l === 'object' && Object.keys(l).length === r),
  anyOf: (l, r) => Array.isArray(r) && (Array.isArray(l) ? l.some((x) => contains(r, x)) : contains(r, l)),
  noneOf: (l, r) => Array.isArray(r) && (Array.isArray(l) ? !l.some((x) => contains(r, x)) : !contains(r, l)),
  subsetOf: (l, r) => Array.isArray(l) && Array.isArray(r) && l.every((x) => contains(r, x)),
};

/**
 * One comparison on two present single values, exactly as filters evaluate it (every operator but
 * `~=`). Exported so other evaluators of the same AST (the recipe compiler) keep preview = run.
 */
export function compareValues(op: Exclude<CompareOp, '~='>, left: Json, right: Json): boolean {
  return OPS[op](left, right);
}

/**
 * serde_json-style value equality (objects compare as key sets, arrays in order), except that
 * numbers compare numerically. Iterative, so a deeply nested document cannot overflow the stack.
 */
export function jsonEqual(a: Json, b: Json): boolean {
  const pending: Json[] = [a, b];
  while (pending.length > 0) {
    const y = pending.pop() as Json;
    const x = pending.pop() as Json;
    if (x === y) continue;
    if (x === null || y === null || typeof x !== 'object' || typeof y !== 'object') return false;
    if (Array.isArray(x) || Array.isArray(y)) {
      if (!Array.isArray(x) || !Array.isArray(y) || x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) pending.push(x[i] as Json, y[i] as Json);
      continue;
    }
    const keys = Object.keys(x);
    if (keys.length !== Object.keys(y).length) return false;
    for (const key of keys) {
      if (!Object.hasOwn(y, key)) return false;
      pending.push(x[key] as Json, y[key] as Json);
    }
  }
  return true;
}
