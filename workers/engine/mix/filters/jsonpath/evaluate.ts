// Compiles a parsed JSONPath to closures: direct accessors for plain paths, a bounded walker otherwise.

import type { Json } from '../types.js';
import { plainStep, plainSteps, type PathExpr, type PlainStep, type Segment, type Selector } from './ast.js';
import { compilePredicate, type EvalContext, type PathCompiler, type Pred, type ValueFn } from './predicate.js';

/**
 * Most nodes one evaluation may visit through wildcards, slices, unions, filters and `..`.
 * Paths like `$..*..*..*` grow polynomially with document size; this turns a runaway
 * evaluation into an error instead of a hung mixer (about 0.1–0.5 s of work).
 */
export const MAX_EVAL_STEPS = 10_000_000;

/** An evaluation that exceeded MAX_EVAL_STEPS; the public API reports it as FilterEvalError. */
export class EvalBudgetError extends Error {
  override readonly name = 'EvalBudgetError';
}

export interface CompiledPath {
  readonly ast: PathExpr;
  /** True when the path finds at least one node (Dolma's "match", spec §3.2). Stops at the first. */
  matches(doc: Json): boolean;
  /** Every node found, in evaluation order. The values are `doc`'s own (not copies). */
  findAll(doc: Json): Json[];
}

/** Called with each node found; returning true stops the walk. */
type Sink = (value: Json) => boolean;
/** Applies the rest of a path to `node`, feeding results to `sink`; true when the sink stopped it. */
type Runner = (node: Json, ctx: EvalContext, sink: Sink) => boolean;
type Accessor = (node: Json) => Json | undefined;
type SelectorFn = (node: Json, ctx: EvalContext, sink: Sink, next: Runner) => boolean;

const STOP: Sink = () => true;
const EMIT: Runner = (node, _ctx, sink) => sink(node);

/** Compile a `$…` path. `src` is the original text, used in compile error messages. */
export function compilePath(ast: PathExpr, src: string): CompiledPath {
  const compiler = new Compiler(src);
  const plain = plainSteps(ast);
  if (plain !== null) {
    const get = compileAccessor(plain);
    return {
      ast,
      matches: (doc) => get(doc) !== undefined,
      findAll: (doc) => {
        const v = get(doc);
        return v === undefined ? [] : [v];
      },
    };
  }
  const run = compiler.runner(ast.segments);
  return {
    ast,
    matches: (doc) => run(doc, { root: doc, steps: 0 }, STOP),
    findAll: (doc) => {
      const out: Json[] = [];
      run(doc, { root: doc, steps: 0 }, (v) => {
        out.push(v);
        return false;
      });
      return out;
    },
  };
}

/** Own member of a plain object; arrays, scalars and inherited properties (`constructor`, `__proto__`) give nothing. */
function memberOf(node: Json, key: string): Json | undefined {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
  return Object.hasOwn(node, key) ? node[key] : undefined;
}

function elementOf(node: Json, index: number): Json | undefined {
  if (!Array.isArray(node)) return undefined;
  const i = index < 0 ? node.length + index : index;
  return i >= 0 && i < node.length ? node[i] : undefined;
}

function compileAccessor(steps: readonly PlainStep[]): Accessor {
  const gets: Accessor[] = steps.map((s) =>
    typeof s === 'string' ? (n: Json) => memberOf(n, s) : (n: Json) => elementOf(n, s),
  );
  const [a, b, c] = gets as [Accessor, Accessor, Accessor];
  switch (gets.length) {
    case 0: return (n) => n;
    case 1: return a;
    case 2: return (n) => { const x = a(n); return x === undefined ? undefined : b(x); };
    case 3: return (n) => { const x = a(n); if (x === undefined) return undefined; const y = b(x); return y === undefined ? undefined : c(y); };
    default:
      return (n) => {
        let v: Json | undefined = n;
        for (let i = 0; i < gets.length && v !== undefined; i++) v = (gets[i] as Accessor)(v);
        return v;
      };
  }
}

function tick(ctx: EvalContext): void {
  if (++ctx.steps > MAX_EVAL_STEPS) {
    throw new EvalBudgetError(`evaluation visited more than ${MAX_EVAL_STEPS} nodes`);
  }
}

/**
 * Slice bounds per RFC 9535 §2.3.4.2 (Python semantics; a negative step walks backwards):
 * visit `from`, `from + step`, … while strictly before `to` in the walking direction.
 */
function sliceBounds(len: number, start: number | null, end: number | null, step: number): [from: number, to: number] {
  const norm = (i: number): number => (i >= 0 ? i : len + i);
  if (step > 0) {
    return [Math.min(Math.max(norm(start ?? 0), 0), len), Math.min(Math.max(norm(end ?? len), 0), len)];
  }
  const clamp = (i: number): number => Math.min(Math.max(i, -1), len - 1);
  return [clamp(start === null ? len - 1 : norm(start)), clamp(end === null ? -1 : norm(end))];
}

class Compiler implements PathCompiler {
  constructor(private readonly src: string) {}

  /** Chain segments right to left, fusing runs of plain steps into one accessor call. */
  runner(segments: readonly Segment[]): Runner {
    let next: Runner = EMIT;
    let i = segments.length;
    while (i > 0) {
      const steps: PlainStep[] = [];
      for (; i > 0; i--) {
        const step = plainStep(segments[i - 1] as Segment);
        if (step === undefined) break;
        steps.unshift(step);
      }
      if (steps.length > 0) {
        const get = compileAccessor(steps);
        const after = next;
        next = after === EMIT
          ? (n, _ctx, sink) => { const v = get(n); return v !== undefined && sink(v); }
          : (n, ctx, sink) => { const v = get(n); return v !== undefined && after(v, ctx, sink); };
      } else {
        next = this.segment(segments[--i] as Segment, next);
      }
    }
    return next;
  }

  private segment(segment: Segment, next: Runner): Runner {
    const sels = segment.selectors.map((s) => this.selector(s));
    if (segment.kind === 'descendant') {
      return (node, ctx, sink) => {
        // Explicit stack in pre-order: depth of the document never reaches the call stack.
        const stack: Json[] = [node];
        while (stack.length > 0) {
          const d = stack.pop() as Json;
          tick(ctx);
          for (const sel of sels) if (sel(d, ctx, sink, next)) return true;
          if (Array.isArray(d)) for (let k = d.length - 1; k >= 0; k--) stack.push(d[k] as Json);
          else if (d !== null && typeof d === 'object') {
            const keys = Object.keys(d);
            for (let k = keys.length - 1; k >= 0; k--) stack.push(d[keys[k] as string] as Json);
          }
        }
        return false;
      };
    }
    const only = sels.length === 1 ? sels[0] : undefined;
    if (only !== undefined) return (node, ctx, sink) => only(node, ctx, sink, next);
    return (node, ctx, sink) => {
      for (const sel of sels) {
        tick(ctx);
        if (sel(node, ctx, sink, next)) return true;
      }
      return false;
    };
  }

  private selector(sel: Selector): SelectorFn {
    switch (sel.kind) {
      case 'name': {
        const key = sel.name;
        return (n, ctx, sink, next) => { const v = memberOf(n, key); return v !== undefined && next(v, ctx, sink); };
      }
      case 'index': {
        const index = sel.index;
        return (n, ctx, sink, next) => { const v = elementOf(n, index); return v !== undefined && next(v, ctx, sink); };
      }
      case 'wildcard':
        return (n, ctx, sink, next) => {
          if (Array.isArray(n)) {
            for (const v of n) if ((tick(ctx), next(v, ctx, sink))) return true;
          } else if (n !== null && typeof n === 'object') {
            for (const key of Object.keys(n)) if ((tick(ctx), next(n[key] as Json, ctx, sink))) return true;
          }
          return false;
        };
      case 'slice': {
        const { start, end } = sel;
        const step = sel.step ?? 1;
        if (step === 0) return () => false; // the parser rejects it; a hand-built AST selects nothing
        return (n, ctx, sink, next) => {
          if (!Array.isArray(n)) return false;
          const [from, to] = sliceBounds(n.length, start, end, step);
          for (let i = from; step > 0 ? i < to : i > to; i += step) {
            if ((tick(ctx), next(n[i] as Json, ctx, sink))) return true;
          }
          return false;
        };
      }
      case 'filter': {
        const test = compilePredicate(sel.test, this, this.src);
        // jsonpath-rust 0.3 FilterPath: arrays test their elements, anything else tests itself.
        return (n, ctx, sink, next) => {
          if (!Array.isArray(n)) return test(n, ctx) && next(n, ctx, sink);
          for (const v of n) if ((tick(ctx), test(v, ctx) && next(v, ctx, sink))) return true;
          return false;
        };
      }
    }
  }

  exists(path: PathExpr): Pred {
    const fromRoot = path.start === 'root';
    const plain = plainSteps(path);
    if (plain !== null) {
      const get = compileAccessor(plain);
      return fromRoot ? (_n, ctx) => get(ctx.root) !== undefined : (n) => get(n) !== undefined;
    }
    const run = this.runner(path.segments);
    return fromRoot ? (_n, ctx) => run(ctx.root, ctx, STOP) : (n, ctx) => run(n, ctx, STOP);
  }

  single(path: PathExpr): ValueFn {
    const fromRoot = path.start === 'root';
    const plain = plainSteps(path);
    if (plain !== null) {
      const get = compileAccessor(plain);
      return fromRoot ? (_n, ctx) => get(ctx.root) : get;
    }
    const run = this.runner(path.segments);
    return (n, ctx) => {
      let count = 0;
      let found: Json | undefined;
      run(fromRoot ? ctx.root : n, ctx, (v) => {
        found = v;
        return ++count > 1; // a second node already makes the operand ambiguous
      });
      return count === 1 ? found : undefined;
    };
  }
}
