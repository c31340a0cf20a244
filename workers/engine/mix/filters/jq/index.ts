// Dolma's jq filter language (spec §3.3–3.4) on jq 1.7 (jq-web): compile rules and selectors, evaluate in batches.
import { FilterCompileError, FilterEvalError, type CompiledRule, type CompiledSelector, type Json, type RuleRole } from '../types.js';
import { runBatches, type BatchOptions } from './batch.js';
import { compileMessage, compileOnly, ruleProgram, selectorProgram } from './program.js';
import { JqRunner, type RunResult } from './runner.js';
import { checkSafety } from './safety.js';
import { rewriteStrictIndexing } from './strict-index.js';

export interface JqOptions {
  /** Time budget of one jq run (one batch of documents, or the compile check); default 10 s. */
  timeoutMs?: number;
  /** Documents per jq run; default 256. */
  batchSize?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_BATCH_SIZE = 256;

let shared: JqRunner | null = null;
const runner = (): JqRunner => (shared ??= new JqRunner());

/** Terminate the jq worker (it is unref'd, so this is about freeing memory; a later compile restarts it). */
export function disposeJq(): void {
  shared?.dispose();
}

/** Compile a jq include/exclude rule. Throws FilterCompileError for syntax errors, unknown functions and banned constructs. */
export function compileJqRule(expr: string, role: RuleRole, opts: JqOptions = {}): CompiledRule {
  const batch = batchOptions(opts);
  const program = ruleProgram(prepare(expr, batch.timeoutMs), role);
  verify(expr, program, batch.timeoutMs);
  return {
    expr,
    syntax: 'jq',
    role,
    evaluate(docs: readonly Json[]): boolean[] {
      return runBatches(runner(), program, expr, docs, batch).map((r, i) => {
        if (typeof r === 'boolean') return r;
        throw new FilterEvalError(i, expr, String(r));
      });
    },
  };
}

/** Compile a jq span selector (spec §3.3): per document null (no output), the single output, or the array of outputs. */
export function compileJqSelector(expr: string, opts: JqOptions = {}): CompiledSelector {
  const batch = batchOptions(opts);
  const program = selectorProgram(prepare(expr, batch.timeoutMs));
  verify(expr, program, batch.timeoutMs);
  return {
    expr,
    syntax: 'jq',
    select(docs: readonly Json[]): Json[] {
      return runBatches(runner(), program, expr, docs, batch).map((r, i) => {
        if (!Array.isArray(r)) throw new FilterEvalError(i, expr, String(r));
        const outputs = r as Json[];
        return outputs.length === 0 ? null : outputs.length === 1 ? outputs[0]! : outputs;
      });
    },
  };
}

function batchOptions(opts: JqOptions): BatchOptions {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!(timeoutMs > 0) || !Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('jq options: timeoutMs must be > 0 and batchSize a positive integer');
  return { timeoutMs, batchSize };
}

/** Safety check, then jq's own compile check of the user's text, then the strict-index rewrite. */
function prepare(expr: string, timeoutMs: number): string {
  try {
    checkSafety(expr);
  } catch (e) {
    throw new FilterCompileError(expr, e instanceof Error ? e.message : String(e));
  }
  // jq's diagnostics on the text as written come first: they are the ones that make sense to the user.
  compileCheck(expr, expr, timeoutMs, '');
  try {
    return rewriteStrictIndexing(expr);
  } catch (e) {
    throw new FilterCompileError(expr, e instanceof Error ? e.message : String(e));
  }
}

/** The program we will run must compile too; if it does not, the rewrite is at fault, so say so. */
function verify(expr: string, program: string, timeoutMs: number): void {
  compileCheck(expr, program, timeoutMs, 'internal error: the strict-indexing rewrite does not compile: ');
}

function compileCheck(expr: string, program: string, timeoutMs: number, prefix: string): void {
  let r: RunResult;
  try {
    r = runner().run(compileOnly(program), 'null', timeoutMs);
  } catch (e) {
    throw new FilterCompileError(expr, `cannot start jq: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (r.kind === 'ok') return;
  const why =
    r.kind === 'jq-error' ? compileMessage(r.stderr, expr.split('\n').length) : r.kind === 'timeout' ? `compiling took longer than ${timeoutMs} ms` : r.message;
  throw new FilterCompileError(expr, prefix + why);
}
