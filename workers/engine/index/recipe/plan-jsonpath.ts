// Compiles a Dolma JSONPath rule (jsonpath-rust semantics, as the mixer's evaluator) to a column program.
import { compilePath, parseJsonPath, plainSteps, type CompareExpr, type FilterExpr, type PathExpr, type PlainStep, type Segment } from '../../mix/filters/jsonpath/index.js';
import type { Json } from '../../mix/filters/types.js';
import type { Interner } from '../store/interner.js';
import { T } from '../store/tags.js';
import { memberRef, type EvalContext } from './context.js';
import { jsonpathCompare, jsonpathCompareNumber, type CmpOp } from './ops.js';
import { flip, locateNumber, Unsupported, type Operand, type RulePlan, type SweepPlan } from './plan.js';
import { bools, exists, indexStep, kleene, kleeneNot, memberOfValue, memberStep, type NodeRef, type VCol } from './vcol.js';

type Run = (ctx: EvalContext) => VCol;

/** A path resolved at plan time: a place in the document, then steps on values. */
interface Resolved {
  run: Run;
  /** Symbolic place when every step so far was a member step. */
  ref: NodeRef | null;
  key: string;
}

const CMP: ReadonlySet<string> = new Set(['==', '!=', '<', '<=', '>', '>=']);

export function planJsonPath(expr: string, interner: Interner): RulePlan {
  const ast = parseJsonPath(expr);
  const keys = new Set<string>();
  const operands: Operand[] = [];
  try {
    const plan = planRule(ast, expr, interner, keys, operands);
    return { run: plan.run, keys: [...keys], operands, ...(plan.sweep ? { sweep: plan.sweep } : {}) };
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    collectKeys(ast, keys);
    return { run: null, reason: e.message, keys: [...keys], operands };
  }
}

function planRule(ast: PathExpr, expr: string, interner: Interner, keys: Set<string>, operands: Operand[]): { run: Run; sweep?: SweepPlan } {
  const steps = plainSteps(ast);
  if (steps !== null) {
    const p = resolve(root(), steps, keys);
    return { run: (ctx) => ctx.memo(`jp-exists:${p.key}`, () => exists(p.run(ctx))) };
  }
  const last = ast.segments[ast.segments.length - 1] as Segment;
  const prefix = plainSteps({ ...ast, segments: ast.segments.slice(0, -1) });
  const sel = last.selectors.length === 1 ? last.selectors[0] : undefined;
  if (prefix === null || last.kind !== 'child' || sel?.kind !== 'filter') {
    throw new Unsupported('only plain paths and plain paths ending in one [?( )] filter are compiled');
  }
  const target = resolve(root(), prefix, keys);
  const prefixSegs = ast.segments.slice(0, -1);
  const test = planFilter(sel.test, target, prefixSegs, expr, interner, keys, operands);
  const g: { guard: Run | null; cmp: Comparison } | undefined = test.guarded ?? (test.cmp ? { guard: null, cmp: test.cmp } : undefined);
  const run: Run = g
    ? (ctx) => guardedCompare(target.run(ctx), g.guard?.(ctx) ?? null, g.cmp.operand.run(ctx), g.cmp.op, g.cmp.k)
    : (ctx) => filterOn(target.run(ctx), test.run(ctx));
  return { run, ...sweepOf(sel.test, target, prefixSegs, expr, keys) };
}

const root = (): Resolved => ({ run: (ctx) => ctx.node({ kind: 'doc' }), ref: { kind: 'doc' }, key: '$' });

function resolve(start: Resolved, steps: readonly PlainStep[], keys: Set<string>): Resolved {
  let cur = start;
  for (const step of steps) {
    const prev = cur;
    const key = `${prev.key}${JSON.stringify([step])}`;
    if (typeof step === 'string') {
      if (prev.ref !== null) {
        const ref = memberRef(prev.ref, step);
        if (ref === null) throw new Unsupported(`the index keeps keys at most 2 levels below attributes (3 below the document); \`${step}\` is deeper`);
        if (ref.kind === 'attr' && ref.path.length === 1) keys.add(ref.path[0] as string);
        cur = { ref, key, run: (ctx) => ctx.memo(`jp:${key}`, () => memberStep(prev.run(ctx), ctx.node(ref), 'jsonpath', false)) };
      } else cur = { ref: null, key, run: (ctx) => ctx.memo(`jp:${key}`, () => memberOfValue(prev.run(ctx), 'jsonpath', false)) };
    } else {
      cur = { ref: null, key, run: (ctx) => ctx.memo(`jp:${key}`, () => indexStep(prev.run(ctx), step, 'jsonpath', false)) };
    }
  }
  return cur;
}

/**
 * `filterOn(target, guard && operand op k)` in one pass: the shape of every production rule, and the
 * one a threshold slider re-evaluates (kleene AND, then the comparison as jsonpathCompareNumber).
 */
function guardedCompare(target: VCol, guard: VCol | null, v: VCol, op: CmpOp, k: number): VCol {
  const n = target.tag.length;
  const out = bools(n);
  const o = out.tag;
  const tt = target.tag;
  const gt = guard?.tag;
  const vt = v.tag;
  const vn = v.num;
  const ordered = op === '<' || op === '<=' || op === '>' || op === '>=';
  for (let g = 0; g < n; g++) {
    // The common case first: an attributes object whose guarded value is a number.
    if (ordered && vt[g] === T.NUM && tt[g] === T.OBJ && (gt === undefined || gt[g] === T.TRUE)) {
      const y = vn[g] as number;
      o[g] = (op === '<' ? y < k : op === '<=' ? y <= k : op === '>' ? y > k : y >= k) ? T.TRUE : T.FALSE;
      continue;
    }
    const t = tt[g] as number;
    if (t === T.ABSENT || t === T.EMPTY) {
      o[g] = T.FALSE;
      continue;
    }
    if (t === T.SPANS || t === T.ODDARR || t === T.SPAN0 || t === T.ANY || t === T.UNKNOWN) {
      o[g] = T.UNKNOWN;
      continue;
    }
    const gd = gt === undefined ? T.TRUE : (gt[g] as number);
    if (gd === T.FALSE) {
      o[g] = T.FALSE;
      continue;
    }
    const x = vt[g] as number;
    let c: number;
    if (x === T.UNKNOWN || x === T.ANY) c = T.UNKNOWN;
    else if (ordered) {
      if (x !== T.NUM) c = T.FALSE;
      else {
        const y = vn[g] as number;
        c = (op === '<' ? y < k : op === '<=' ? y <= k : op === '>' ? y > k : y >= k) ? T.TRUE : T.FALSE;
      }
    } else if (x === T.ABSENT) c = T.FALSE;
    else {
      const eq = x === T.NUM && vn[g] === k;
      c = (op === '==' ? eq : !eq) ? T.TRUE : T.FALSE;
    }
    o[g] = c === T.FALSE ? T.FALSE : c === T.UNKNOWN || gd === T.UNKNOWN ? T.UNKNOWN : T.TRUE;
  }
  return out;
}

/** jsonpath-rust FilterPath: an array tests its elements (not compiled), anything else tests itself. */
function filterOn(target: VCol, test: VCol): VCol {
  const n = target.tag.length;
  const out = bools(n);
  for (let g = 0; g < n; g++) {
    const t = target.tag[g] as number;
    out.tag[g] =
      t === T.ABSENT || t === T.EMPTY ? T.FALSE
      : t === T.SPANS || t === T.ODDARR || t === T.SPAN0 || t === T.ANY || t === T.UNKNOWN ? T.UNKNOWN
      : (test.tag[g] as number);
  }
  return out;
}

function operandPath(path: PathExpr, target: Resolved, keys: Set<string>): Resolved {
  const steps = plainSteps(path);
  if (steps === null) throw new Unsupported('filter operands must be plain paths (names and indexes)');
  return resolve(path.start === 'root' ? root() : target, steps, keys);
}

/**
 * A planned condition. `key` is set when it reads no literal, so its column does not change when a
 * threshold does and can be memoised; `cmp` when it is `path op number` (the part a slider moves).
 */
interface Planned {
  run: Run;
  key: string | null;
  cmp?: Comparison;
  /** `guard && cmp`, with a literal-free guard: evaluated in one fused pass. */
  guarded?: { guard: Run; cmp: Comparison };
}

interface Comparison {
  operand: Resolved;
  op: CmpOp;
  k: number;
}

function planFilter(e: FilterExpr, target: Resolved, prefix: readonly Segment[], expr: string, interner: Interner, keys: Set<string>, operands: Operand[]): Planned {
  switch (e.kind) {
    case 'or':
    case 'and': {
      const parts = e.operands.map((x) => planFilter(x, target, prefix, expr, interner, keys, operands));
      const keyed = parts.filter((p) => p.key !== null);
      const rest = parts.filter((p) => p.key === null);
      // Everything literal-free is combined once; a threshold edit then redoes one comparison.
      const fixedKey = keyed.length > 1 ? `jp-${e.kind}(${keyed.map((p) => p.key).join(',')})` : (keyed[0]?.key ?? null);
      const fixed: Run | null = keyed.length === 0 ? null : keyed.length === 1 ? (keyed[0] as Planned).run : (ctx) => ctx.memo(fixedKey as string, () => kleene(keyed.map((p) => p.run(ctx)), e.kind));
      if (rest.length === 0) return { key: fixedKey, run: fixed as Run };
      const runs = [...(fixed ? [fixed] : []), ...rest.map((p) => p.run)];
      const only = rest.length === 1 ? (rest[0] as Planned) : undefined;
      return {
        key: null,
        run: (ctx) => kleene(runs.map((r) => r(ctx)), e.kind),
        ...(e.kind === 'and' && only?.cmp && fixed ? { guarded: { guard: fixed, cmp: only.cmp } } : {}),
      };
    }
    case 'not': {
      const inner = planFilter(e.operand, target, prefix, expr, interner, keys, operands);
      const key = inner.key === null ? null : `jp-not(${inner.key})`;
      const run: Run = (ctx) => kleeneNot(inner.run(ctx));
      return { key, run: key === null ? run : (ctx) => ctx.memo(key, () => run(ctx)) };
    }
    case 'exists': {
      const p = operandPath(e.path, target, keys);
      const key = `jp-exists:${p.key}`;
      return { key, run: (ctx) => ctx.memo(key, () => exists(p.run(ctx))) };
    }
    case 'compare':
      return planCompare(e, target, prefix, interner, keys, operands);
  }
}

function planCompare(e: CompareExpr, target: Resolved, prefix: readonly Segment[], interner: Interner, keys: Set<string>, operands: Operand[]): Planned {
  if (!CMP.has(e.op)) throw new Unsupported(`the \`${e.op}\` operator is evaluated exactly`);
  const op = e.op as CmpOp;
  const side = (o: CompareExpr['left']): Resolved | Json => {
    if (o.kind === 'literal') return o.value;
    const r = operandPath(o, target, keys);
    operands.push({ label: labelOf(o, prefix), get: getterOf(o, prefix) });
    return r;
  };
  const l = side(e.left);
  const r = side(e.right);
  const isPath = (x: Resolved | Json): x is Resolved => x !== null && typeof x === 'object' && !Array.isArray(x) && 'run' in x;
  if (!isPath(l) && !isPath(r)) throw new Unsupported('a comparison of two literals is evaluated exactly');
  if (isPath(l) && typeof r === 'number') return { key: null, run: (ctx) => jsonpathCompareNumber(op, l.run(ctx), r), cmp: { operand: l, op, k: r } };
  if (isPath(r) && typeof l === 'number') return { key: null, run: (ctx) => jsonpathCompareNumber(flip(op), r.run(ctx), l), cmp: { operand: r, op: flip(op), k: l } };
  const col = (x: Resolved | Json): Run => {
    if (isPath(x)) return x.run;
    const lit = literal(x, interner);
    return (ctx) => ctx.memo(`lit:${lit.tag}:${lit.num}`, () => ({ tag: new Uint8Array(ctx.n).fill(lit.tag), num: new Float64Array(ctx.n).fill(lit.num) }));
  };
  const a = col(l);
  const b = col(r);
  const key = isPath(l) && isPath(r) ? `jp-cmp(${l.key}${op}${r.key})` : null;
  const run: Run = (ctx) => jsonpathCompare(op, a(ctx), b(ctx));
  return { key, run: key === null ? run : (ctx) => ctx.memo(key, () => run(ctx)) };
}

function literal(v: Json, interner: Interner): { tag: number; num: number } {
  if (v === null) return { tag: T.NULL, num: 0 };
  switch (typeof v) {
    case 'number': return { tag: T.NUM, num: v };
    case 'string': return { tag: T.STR, num: interner.code(v) };
    case 'boolean': return { tag: v ? T.TRUE : T.FALSE, num: 0 };
    default: throw new Unsupported('array and object literals are evaluated exactly');
  }
}

/** `$.attributes[?(@.k && @.k[0] && @.k[0][2] < t)]`-shaped rules: one numeric comparison, guarded by its own prefixes. */
function sweepOf(test: FilterExpr, target: Resolved, prefix: readonly Segment[], expr: string, keys: Set<string>): { sweep?: SweepPlan } {
  const parts = test.kind === 'and' ? test.operands : [test];
  const cmps = parts.filter((p): p is CompareExpr => p.kind === 'compare');
  if (cmps.length !== 1) return {};
  const c = cmps[0] as CompareExpr;
  if (!CMP.has(c.op)) return {};
  const pathSide = c.left.kind === 'path' ? c.left : c.right.kind === 'path' ? c.right : null;
  const lit = c.left.kind === 'literal' ? c.left.value : c.right.kind === 'literal' ? c.right.value : null;
  if (pathSide === null || typeof lit !== 'number') return {};
  const steps = plainSteps(pathSide);
  if (steps === null) return {};
  const guardsOk = parts.every((p) => {
    if (p === c) return true;
    if (p.kind !== 'exists' || p.path.start !== pathSide.start) return false;
    const g = plainSteps(p.path);
    return g !== null && g.length <= steps.length && g.every((s, i) => s === steps[i]);
  });
  if (!guardsOk) return {};
  const op = c.left.kind === 'path' ? (c.op as CmpOp) : flip(c.op as CmpOp);
  const p = operandPath(pathSide, target, keys);
  const at = locateNumber(expr, lit);
  return {
    sweep: {
      label: labelOf(pathSide, prefix),
      op,
      threshold: lit,
      ...(at ? { offset: at.offset, numberText: at.text } : {}),
      operandKey: `jp-sweep:${p.key}|${target.key}`,
      operand: (ctx) => ctx.memo(`jp-sweep:${p.key}|${target.key}`, () => {
        const v = p.run(ctx);
        const t = target.run(ctx);
        const out = { tag: new Uint8Array(ctx.n), num: v.num };
        for (let g = 0; g < ctx.n; g++) {
          const tt = t.tag[g] as number;
          const usable = tt !== T.ABSENT && tt !== T.EMPTY && tt !== T.SPANS && tt !== T.ODDARR && tt !== T.SPAN0 && tt !== T.ANY && tt !== T.UNKNOWN;
          out.tag[g] = usable ? (v.tag[g] as number) : T.ABSENT;
        }
        return out;
      }, true),
    },
  };
}

/** `@.k[0][2]` under `$.attributes` reads as `k`; other paths show their JSONPath. */
function labelOf(path: PathExpr, prefix: readonly Segment[]): string {
  const steps = plainSteps(path) ?? [];
  const full = path.start === 'root' ? steps : [...(plainSteps({ kind: 'path', start: 'root', segments: prefix }) ?? []), ...steps];
  const names: string[] = [];
  for (const s of full) {
    if (typeof s !== 'string') break;
    names.push(s);
  }
  if (names[0] === 'attributes' && names.length >= 2) return names.slice(1).join('.');
  return names.length > 0 ? names.join('.') : '$';
}

/** The operand's value in a merged document, through the mixer's own evaluator. */
function getterOf(path: PathExpr, prefix: readonly Segment[]): (doc: Json) => unknown {
  const abs: PathExpr = path.start === 'root' ? path : { kind: 'path', start: 'root', segments: [...prefix, ...path.segments] };
  const compiled = compilePath(abs, '(operand)');
  return (doc) => {
    const found = compiled.findAll(doc);
    return found.length === 1 ? found[0] : undefined;
  };
}

/** Attribute keys named anywhere in an expression the compiler does not handle (for lint). */
function collectKeys(ast: PathExpr, keys: Set<string>): void {
  const names = (seg: Segment | undefined): string[] => (seg?.selectors ?? []).flatMap((s) => (s.kind === 'name' ? [s.name] : []));
  const visitPath = (p: PathExpr, targetIsAttributes: boolean): void => {
    const atRootAttributes = p.start === 'root' && names(p.segments[0]).includes('attributes');
    if (atRootAttributes) for (const k of names(p.segments[1])) keys.add(k);
    if (p.start === 'current' && targetIsAttributes) for (const k of names(p.segments[0])) keys.add(k);
    p.segments.forEach((seg, i) => {
      for (const s of seg.selectors) if (s.kind === 'filter') visitFilter(s.test, atRootAttributes && i === 1);
    });
  };
  const visitFilter = (f: FilterExpr, targetIsAttributes: boolean): void => {
    switch (f.kind) {
      case 'or': case 'and': f.operands.forEach((x) => visitFilter(x, targetIsAttributes)); break;
      case 'not': visitFilter(f.operand, targetIsAttributes); break;
      case 'exists': visitPath(f.path, targetIsAttributes); break;
      case 'compare':
        for (const o of [f.left, f.right]) if (o.kind === 'path') visitPath(o, targetIsAttributes);
    }
  };
  visitPath(ast, false);
}

/** A span selector that is a plain path (`$.attributes.k`): its value per document, or null when not compiled. */
export function planJsonPathValue(expr: string): ((ctx: EvalContext) => VCol) | null {
  try {
    const steps = plainSteps(parseJsonPath(expr));
    if (steps === null) return null;
    return resolve(root(), steps, new Set()).run;
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
