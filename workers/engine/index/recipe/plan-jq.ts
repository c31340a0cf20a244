// Compiles the jq subset to column programs with Assay's jq semantics (jaq's strict indexing, Dolma's truthiness).
import type { Json } from '../../mix/filters/types.js';
import type { Interner } from '../store/interner.js';
import { T } from '../store/tags.js';
import { memberRef, type EvalContext } from './context.js';
import { parseJq, type JqAst, type JqStep } from './jq-parse.js';
import { dolmaTruthy, jqArith, jqCompare, jqIf, jqLength, jqLogic, jqNot, jqType, type CmpOp } from './ops.js';
import { flip, Unsupported, type Operand, type RulePlan, type SweepPlan } from './plan.js';
import { indexStep, memberOfValue, memberStep, type NodeRef, type VCol } from './vcol.js';

type Run = (ctx: EvalContext, input: VCol) => VCol;

interface Compiled {
  run: Run;
  /** Place in the document when the expression is a pure path from one. */
  ref: NodeRef | null;
  /** Memo key of a pure path from the document root. */
  key: string | null;
}

interface Env {
  interner: Interner;
  keys: Set<string>;
  operands: Operand[];
}

const DOC: NodeRef = { kind: 'doc' };

export function planJq(expr: string, interner: Interner): RulePlan {
  const env: Env = { interner, keys: new Set(), operands: [] };
  let ast: JqAst;
  try {
    ast = parseJq(expr);
  } catch (e) {
    if (e instanceof Unsupported) return { run: null, reason: e.message, keys: keysByText(expr), operands: [] };
    throw e;
  }
  try {
    const c = compile(ast, { ref: DOC, key: '.' }, env);
    const run = (ctx: EvalContext): VCol => dolmaTruthy(c.run(ctx, ctx.node(DOC)), interner);
    const sweep = sweepOf(ast, env);
    return { run, keys: [...env.keys], operands: env.operands, ...(sweep ? { sweep } : {}) };
  } catch (e) {
    if (!(e instanceof Unsupported)) throw e;
    return { run: null, reason: e.message, keys: [...new Set([...env.keys, ...keysByText(expr)])], operands: env.operands };
  }
}

/** Attribute keys an uncompiled expression mentions as `.attributes.<key>` (for lint only). */
function keysByText(expr: string): string[] {
  const out = new Set<string>();
  for (const m of expr.matchAll(/\.attributes\??\s*(?:\.([A-Za-z_][A-Za-z0-9_]*)|\.?"((?:[^"\\]|\\.)*)"|\[\s*"((?:[^"\\]|\\.)*)"\s*\])/g)) out.add((m[1] ?? m[2] ?? m[3]) as string);
  return [...out];
}

function compile(ast: JqAst, input: { ref: NodeRef | null; key: string | null }, env: Env): Compiled {
  switch (ast.k) {
    case 'path': {
      const base = ast.base === null ? { run: ((_c, i) => i) as Run, ...input } : compile(ast.base, input, env);
      return ast.steps.reduce((cur, step) => applyStep(cur, step, env), base);
    }
    case 'lit': {
      const lit = literal(ast.value, env.interner);
      return { ref: null, key: null, run: (ctx) => ctx.memo(`jqlit:${lit.tag}:${lit.num}`, () => ({ tag: new Uint8Array(ctx.n).fill(lit.tag), num: new Float64Array(ctx.n).fill(lit.num) })) };
    }
    case 'pipe': {
      const a = compile(ast.a, input, env);
      const b = compile(ast.b, a, env);
      return { ...b, run: (ctx, i) => b.run(ctx, a.run(ctx, i)) };
    }
    case 'cmp': {
      const a = compile(ast.a, input, env);
      const b = compile(ast.b, input, env);
      noteOperand(ast.a, input, env);
      noteOperand(ast.b, input, env);
      return value((ctx, i) => jqCompare(ast.op, a.run(ctx, i), b.run(ctx, i), env.interner));
    }
    case 'logic': {
      const a = compile(ast.a, input, env);
      const b = compile(ast.b, input, env);
      return value((ctx, i) => jqLogic(ast.op, a.run(ctx, i), b.run(ctx, i)));
    }
    case 'arith': {
      const a = compile(ast.a, input, env);
      const b = compile(ast.b, input, env);
      return value((ctx, i) => jqArith(ast.op, a.run(ctx, i), b.run(ctx, i)));
    }
    case 'call':
      if (ast.name === 'length') {
        if (input.ref !== null) noteRef(input.ref, env);
        return value((ctx, i) => jqLength(i, env.interner));
      }
      return value(ast.name === 'not' ? (_ctx, i) => jqNot(i) : (ctx, i) => jqType(i, env.interner));
    case 'if': {
      const c = compile(ast.cond, input, env);
      const a = compile(ast.then, input, env);
      const b = compile(ast.else, input, env);
      return value((ctx, i) => jqIf(c.run(ctx, i), a.run(ctx, i), b.run(ctx, i)));
    }
  }
}

const value = (run: Run): Compiled => ({ run, ref: null, key: null });

function applyStep(cur: Compiled, step: JqStep, env: Env): Compiled {
  const key = cur.key === null ? null : `${cur.key}${JSON.stringify([step.kind === 'member' ? step.key : step.index, step.optional])}`;
  const memo = (run: Run): Run => (key === null ? run : (ctx, i) => ctx.memo(`jq:${key}`, () => run(ctx, i)));
  if (step.kind === 'index') return { ref: null, key, run: memo((ctx, i) => indexStep(cur.run(ctx, i), step.index, 'jq', step.optional)) };
  if (cur.ref === null) return { ref: null, key, run: memo((ctx, i) => memberOfValue(cur.run(ctx, i), 'jq', step.optional)) };
  const ref = memberRef(cur.ref, step.key);
  if (ref === null) throw new Unsupported(`the index keeps keys at most 2 levels below attributes (3 below the document); \`${step.key}\` is deeper`);
  noteRef(ref, env);
  return { ref, key, run: memo((ctx, i) => memberStep(cur.run(ctx, i), ctx.node(ref), 'jq', step.optional)) };
}

function noteRef(ref: NodeRef, env: Env): void {
  if (ref.kind === 'attr') env.keys.add(ref.path[0] as string);
}

function literal(v: number | string | boolean | null, interner: Interner): { tag: number; num: number } {
  if (v === null) return { tag: T.NULL, num: 0 };
  if (typeof v === 'number') return { tag: T.NUM, num: v };
  if (typeof v === 'string') return { tag: T.STR, num: interner.code(v) };
  return { tag: v ? T.TRUE : T.FALSE, num: 0 };
}

/** A compared path from the document root, for explanations. */
function noteOperand(ast: JqAst, input: { ref: NodeRef | null }, env: Env): void {
  const steps = pathSteps(ast);
  if (steps === null || input.ref?.kind !== 'doc') return;
  env.operands.push({ label: labelOf(steps), get: (doc) => walk(doc, steps) });
}

function pathSteps(ast: JqAst): JqStep[] | null {
  if (ast.k === 'path' && ast.base === null) return ast.steps;
  if (ast.k === 'pipe') {
    const a = pathSteps(ast.a);
    const b = pathSteps(ast.b);
    return a !== null && b !== null ? [...a, ...b] : null;
  }
  return null;
}

function labelOf(steps: JqStep[]): string {
  const names: string[] = [];
  for (const s of steps) {
    if (s.kind !== 'member') break;
    names.push(s.key);
  }
  if (names[0] === 'attributes' && names.length >= 2) return names.slice(1).join('.');
  return names.join('.') || '.';
}

/** jq's reading of a path for display: missing members and elements are null. */
function walk(doc: Json, steps: JqStep[]): unknown {
  let v: unknown = doc;
  for (const s of steps) {
    if (s.kind === 'member') v = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, s.key) ? (v as Record<string, unknown>)[s.key] : null;
    else if (Array.isArray(v)) v = v[s.index < 0 ? v.length + s.index : s.index] ?? null;
    else v = null;
  }
  return v;
}

/** `PATH op number` (either way round) at the top: jq orders null/booleans below numbers, strings/arrays/objects above. */
function sweepOf(ast: JqAst, env: Env): SweepPlan | undefined {
  if (ast.k !== 'cmp') return undefined;
  const [pathAst, lit, op] = ast.b.k === 'lit' ? [ast.a, ast.b, ast.op] : ast.a.k === 'lit' ? [ast.b, ast.a, flip(ast.op)] : [null, null, ast.op];
  if (pathAst === null || lit === null || lit.k !== 'lit' || typeof lit.value !== 'number') return undefined;
  const steps = pathSteps(pathAst);
  if (steps === null) return undefined;
  const c = compile(pathAst, { ref: DOC, key: '.' }, { ...env, operands: [] });
  return {
    label: labelOf(steps),
    op: op as CmpOp,
    threshold: lit.value,
    offset: lit.offset,
    numberText: lit.text,
    operandKey: `jq-sweep:${JSON.stringify(steps)}`,
    operand: (ctx) => ctx.memo(`jq-sweep:${JSON.stringify(steps)}`, () => {
      const v = c.run(ctx, ctx.node(DOC));
      const out: VCol = { tag: new Uint8Array(ctx.n), num: new Float64Array(ctx.n) };
      for (let g = 0; g < ctx.n; g++) {
        const t = v.tag[g] as number;
        if (t === T.NUM) {
          out.tag[g] = T.NUM;
          out.num[g] = v.num[g] as number;
        } else if (t === T.NULL || t === T.FALSE || t === T.TRUE || t === T.STR || t === T.OBJ || t === T.SPANS || t === T.EMPTY || t === T.ODDARR || t === T.SPAN0) {
          out.tag[g] = T.NUM;
          out.num[g] = t === T.NULL || t === T.FALSE || t === T.TRUE ? -Infinity : Infinity;
        } else out.tag[g] = t === T.NOOUT ? T.ABSENT : T.UNKNOWN;
      }
      return out;
    }, true),
  };
}

/** A jq span selector's single output per document (NOOUT: none), or null when outside the subset. */
export function planJqValue(expr: string, interner: Interner): ((ctx: EvalContext) => VCol) | null {
  try {
    const c = compile(parseJq(expr), { ref: DOC, key: '.' }, { interner, keys: new Set(), operands: [] });
    return (ctx) => c.run(ctx, ctx.node(DOC));
  } catch (e) {
    if (e instanceof Unsupported) return null;
    throw e;
  }
}
