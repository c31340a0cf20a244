// Evaluates one rule over a stream: the column program where it can tell, the mixer's own evaluator elsewhere.
import { FilterEvalError, type CompiledRule, type Json } from '../../mix/filters/types.js';
import { checkInterrupt } from '../interrupt.js';
import { Bitset } from '../preview/bitset.js';
import { T } from '../store/tags.js';
import type { EvalContext } from './context.js';
import type { Materializer } from './materialize.js';
import type { RulePlan } from './plan.js';
import type { StreamScope } from './streams.js';

export interface RuleOutcome {
  /** Stream documents the rule matches (JSONPath finds a node; jq's outputs are truthy as its role requires). */
  hits: Bitset;
  /** Stream documents on which evaluating the rule fails (the mixer would stop if it reached one). */
  errors: Bitset;
  errorCount: number;
  /** Failure messages known so far (documents failed by the column program get theirs on demand). */
  messages: Map<number, string>;
  /** Documents that needed the exact evaluator. */
  exact: number;
}

/** Documents per call of the exact evaluator (jq runs one batch per call). */
const CHUNK = 256;

export function evaluateRule(plan: RulePlan, rule: CompiledRule, scope: StreamScope, ctx: EvalContext, mat: Materializer): RuleOutcome {
  const hits = new Bitset(ctx.n);
  const errors = new Bitset(ctx.n);
  const messages = new Map<number, string>();
  const pending: number[] = [];
  checkInterrupt();
  if (plan.run !== null) {
    const tag = plan.run(ctx).tag;
    const w = hits.words;
    for (const [from, to] of scope.ranges) {
      // A word's bits are gathered in a register and stored once (ranges may start or end inside a word).
      let g = from;
      while (g < to) {
        const i = g >>> 5;
        const end = Math.min(to, (i + 1) << 5);
        let bits = 0;
        for (; g < end; g++) {
          const t = tag[g];
          if (t === T.TRUE) bits |= 1 << (g & 31);
          else if (t !== T.FALSE) {
            if (t === T.ERROR) errors.set(g);
            else pending.push(g);
          }
        }
        w[i]! |= bits;
      }
    }
  } else for (const [from, to] of scope.ranges) for (let g = from; g < to; g++) pending.push(g);
  for (let i = 0; i < pending.length; i += CHUNK) {
    checkInterrupt();
    const gs = pending.slice(i, i + CHUNK);
    exactChunk(rule, gs.map((g) => mat.merged(g, scope.merge.sets)), gs, hits, errors, messages);
  }
  return { hits, errors, errorCount: errors.count(), messages, exact: pending.length };
}

/** The mixer's evaluator on a batch; a failing document is set aside and the rest evaluated again. */
function exactChunk(rule: CompiledRule, docs: Json[], gs: number[], hits: Bitset, errors: Bitset, messages: Map<number, string>): void {
  if (docs.length === 0) return;
  try {
    rule.evaluate(docs).forEach((hit, i) => hit && hits.set(gs[i] as number));
  } catch (e) {
    if (!(e instanceof FilterEvalError)) throw e;
    const bad = Math.min(Math.max(e.index, 0), docs.length - 1);
    // A failure covering several documents (a jq batch out of time) marks them all: retrying would cost a budget each.
    const n = Math.max(1, Math.min(e.count, docs.length - bad));
    for (let k = bad; k < bad + n; k++) {
      errors.set(gs[k] as number);
      messages.set(gs[k] as number, e.message);
    }
    exactChunk(rule, docs.slice(0, bad), gs.slice(0, bad), hits, errors, messages);
    exactChunk(rule, docs.slice(bad + n), gs.slice(bad + n), hits, errors, messages);
  }
}

/** The failure message of document `g`, from the mixer's evaluator (null if it does not fail there). */
export function exactFailure(rule: CompiledRule, doc: Json): string | null {
  try {
    rule.evaluate([doc]);
    return null;
  } catch (e) {
    if (e instanceof FilterEvalError) return e.message;
    throw e;
  }
}
