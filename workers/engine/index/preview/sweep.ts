// Threshold sweeps: the fraction a numeric rule alone drops at 50 thresholds, counted in one pass over its operand.
import type { ThresholdSweep } from '../../../../shared/contract/preview.js';
import type { CmpOp } from '../recipe/ops.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import type { EvalContext } from '../recipe/context.js';
import type { SweepPlan } from '../recipe/plan.js';
import { T } from '../store/tags.js';
import type { StreamAnalysis } from './analyze.js';
import { fractionEstimate } from './estimate.js';

export const SWEEP_POINTS = 50;

/** For each candidate threshold x: how many operand values are < x, <= x, == x (and how many are present at all). */
interface Counts {
  thresholds: number[];
  lt: Float64Array;
  le: Float64Array;
  eq: Float64Array;
  numbers: number;
  present: number;
}

/**
 * Counts per operand and stream, kept as long as the evaluation context (one per merge): a threshold edit
 * reuses them even after the context's memo let the operand column itself go (they are 50 numbers, it is n).
 */
const countsCache = new WeakMap<EvalContext, Map<string, Counts | null>>();

/** First index i with xs[i] > v (strict) or xs[i] >= v. */
function firstAbove(xs: readonly number[], v: number, strict: boolean): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const x = xs[mid] as number;
    if (strict ? x <= v : x < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function countsOf(plan: SweepPlan, a: StreamAnalysis): Counts | null {
  let byKey = countsCache.get(a.ctx);
  if (byKey === undefined) countsCache.set(a.ctx, (byKey = new Map()));
  const key = `${plan.operandKey}\u0000${a.scope.key}`;
  if (byKey.has(key)) return byKey.get(key) as Counts | null;
  const v = plan.operand(a.ctx);
  let min = Infinity;
  let max = -Infinity;
  let numbers = 0;
  let present = 0;
  for (const [from, to] of a.scope.ranges) {
    for (let g = from; g < to; g++) {
      const t = v.tag[g];
      if (t === T.ABSENT) continue;
      present++;
      if (t !== T.NUM) continue;
      numbers++;
      const x = v.num[g] as number;
      if (Number.isFinite(x)) {
        if (x < min) min = x;
        if (x > max) max = x;
      }
    }
  }
  let out: Counts | null = null;
  if (min <= max) {
    const thresholds = Array.from({ length: SWEEP_POINTS }, (_, i) => (i === SWEEP_POINTS - 1 ? max : min + ((max - min) * i) / (SWEEP_POINTS - 1)));
    // Difference arrays: a value v is < x_i for every i from firstAbove(v, strict) on, <= x_i from firstAbove(v) on.
    const lt = new Float64Array(SWEEP_POINTS + 1);
    const le = new Float64Array(SWEEP_POINTS + 1);
    const eq = new Float64Array(SWEEP_POINTS);
    for (const [from, to] of a.scope.ranges) {
      for (let g = from; g < to; g++) {
        if (v.tag[g] !== T.NUM) continue;
        const x = v.num[g] as number;
        const i = firstAbove(thresholds, x, true);
        const j = firstAbove(thresholds, x, false);
        lt[i]!++;
        le[j]!++;
        if (j < i) for (let k = j; k < i; k++) if (thresholds[k] === x) eq[k]!++;
      }
    }
    for (let i = 1; i <= SWEEP_POINTS; i++) {
      lt[i]! += lt[i - 1] as number;
      le[i]! += le[i - 1] as number;
    }
    out = { thresholds, lt, le, eq, numbers, present };
  }
  byKey.set(key, out);
  return out;
}

function matching(c: Counts, op: CmpOp, i: number): number {
  switch (op) {
    case '<': return c.lt[i] as number;
    case '<=': return c.le[i] as number;
    case '>': return c.numbers - (c.le[i] as number);
    case '>=': return c.numbers - (c.lt[i] as number);
    case '==': return c.eq[i] as number;
    case '!=': return c.present - (c.eq[i] as number);
  }
}

export function sweepFor(spec: RuleSpec, a: StreamAnalysis, recipe: ParsedRecipe): ThresholdSweep | undefined {
  const f = spec.filter;
  const plan = f?.plan.sweep;
  if (!f || !plan) return undefined;
  const outcome = (spec.kind === 'include' ? a.includes : a.excludes).find((x) => x.spec === spec)?.outcome;
  if (!outcome || outcome.exact > 0 || outcome.errorCount > 0 || a.scope.count === 0) return undefined;
  const c = countsOf(plan, a);
  if (c === null) return undefined;
  const total = a.scope.count;
  const dropped = c.thresholds.map((_, i) => {
    const m = matching(c, plan.op, i);
    return spec.kind === 'include' ? total - m : m;
  });
  const dropFraction = dropped.map((k) => k / total);
  const s = a.ctx.data.sample;
  const ci = s === null ? null : dropped.map((k) => fractionEstimate(k, total, { n: s.docs, N: s.of, z: s.z }));
  let location: ThresholdSweep['location'];
  if (plan.offset !== undefined && plan.numberText !== undefined) {
    const p = recipe.locator.inside(spec.path, plan.offset, plan.numberText);
    if (p) location = { line: p.line, column: p.column, endColumn: p.column + plan.numberText.length };
  }
  return { key: plan.label, op: plan.op, threshold: plan.threshold, ...(location ? { location } : {}), thresholds: c.thresholds, dropFraction, ...(ci ? { dropFractionCi: ci } : {}) };
}
