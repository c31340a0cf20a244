// V8's tier-up budget for engine processes: fewer functions sent to the optimizing compiler in a run of a few seconds.
import { setFlagsFromString } from 'node:v8';
import { AssayError } from './errors.js';

/**
 * Bytecode V8 lets a function run (weighted by size) before it asks whether to optimize it: V8 11's default is
 * 135,168. In a fresh FineWeb pass over bench/tag's prose corpus TurboFan took ≈ 23 % of the CPU (perf), much of it on
 * functions that run a while and then rarely (the spaCy tokenizer's general path, the taggers' priming, the attribute
 * writer's rare branches). With a budget 3.7× larger those stay in baseline code, and the functions that stay hot are
 * still optimized, a little later: TurboFan's share fell to ≈ 9 %, the fresh pass's median CPU by ≈ 10 % and the
 * sustained half's by ≈ 24 % (10 and 8 alternated pairs; README, Performance → V8's tier-up budget). Budgets from
 * 3 to 9 × 10⁵ did about as well; at 2–4 × 10⁶ the hot loops wait too long.
 */
export const INTERRUPT_BUDGET = 500_000;

let applied: number | undefined;

/**
 * Sets the budget for this process (ASSAY_V8_BUDGET=<bytes> overrides it, `default` leaves V8's own). V8 code caches
 * hold the flags they were made under and are rejected under others: runCached calls this before it reads one, so
 * later calls (runTag's) change nothing.
 */
export function tuneV8(env: NodeJS.ProcessEnv = process.env): void {
  const budget = budgetFrom(env);
  if (budget === null || budget === applied) return;
  setFlagsFromString(`--interrupt-budget=${budget}`);
  applied = budget;
}

/** The budget asked for, or null for V8's default. */
export function budgetFrom(env: NodeJS.ProcessEnv): number | null {
  const v = env.ASSAY_V8_BUDGET;
  if (v === undefined || v === '') return INTERRUPT_BUDGET;
  if (v === 'default') return null;
  if (!/^[1-9][0-9]{3,8}$/.test(v)) throw new AssayError('CONFIG', `must be a number of bytes from 1000 to 999999999, or 'default'; not '${v}'`, { field: 'ASSAY_V8_BUDGET' });
  return Number(v);
}
