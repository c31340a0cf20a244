// What compiling one rule yields: a column program (or why not), the keys it reads, and its threshold.
import type { Json } from '../../mix/filters/types.js';
import type { EvalContext } from './context.js';
import type { CmpOp } from './ops.js';
import type { VCol } from './vcol.js';

/** A value a rule compares, for explanations ("`k` = 41 < 50"). */
export interface Operand {
  /** Attribute key or document path, as shown to users. */
  label: string;
  /** Reads the value from a merged document exactly as the rule's language does (undefined: absent). */
  get(doc: Json): unknown;
}

export interface SweepPlan {
  label: string;
  op: CmpOp;
  threshold: number;
  /** Offset of the threshold's text in the expression, when it can be pinned down. */
  offset?: number;
  numberText?: string;
  /**
   * The compared value per document, ABSENT where the rule cannot match whatever the threshold: the
   * rule matches a document at threshold x iff its value is a number v with `v op x` (for `!=`: any
   * present value other than the number x).
   */
  operand(ctx: EvalContext): VCol;
  /** Names the operand within its evaluation context, so its counts outlive the operand column's memo. */
  operandKey: string;
}

export interface RulePlan {
  /** Null when the rule is evaluated exactly (`reason` says why). */
  run: ((ctx: EvalContext) => VCol) | null;
  reason?: string;
  /** Top-level attribute keys the rule reads (`attributes.<key>`). */
  keys: string[];
  operands: Operand[];
  sweep?: SweepPlan;
}

/** Thrown while planning when a construct is outside the compiled subset. */
export class Unsupported extends Error {}

/** The numeric literal of a comparison, located in the expression when it occurs there exactly once after an operator. */
export function locateNumber(expr: string, value: number): { offset: number; text: string } | undefined {
  const re = /(<=|>=|==|!=|<|>)\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
  const hits: { offset: number; text: string }[] = [];
  for (let m = re.exec(expr); m !== null; m = re.exec(expr)) {
    const text = m[2] as string;
    if (Number(text) === value) hits.push({ offset: m.index + m[0].length - text.length, text });
  }
  return hits.length === 1 ? hits[0] : undefined;
}

export const flip = (op: CmpOp): CmpOp => (op === '<' ? '>' : op === '>' ? '<' : op === '<=' ? '>=' : op === '>=' ? '<=' : op);
