// Compile a stream's filter and span-replacement config into evaluators over document batches.
import type { SpanReplacementConfig, StreamConfig } from '../../../shared/recipe/schema.js';
import { AssayError } from '../errors.js';
import { compileJqRule, compileJqSelector } from './filters/jq/index.js';
import { compileJsonPathRule, compileJsonPathSelector } from './filters/jsonpath/index.js';
import {
  FilterCompileError,
  FilterEvalError,
  type CompiledRule,
  type CompiledSelector,
  type FilterSyntax,
  type Json,
  type RuleRole,
} from './filters/types.js';
import { attributeKeysRead } from './attribute-keys.js';
import { computedReplacement, KEEP, selectedSpans } from './fate.js';
import { samplingLabel, samplingOf, type Sampling } from './sample.js';
import type { Replacement } from './spans.js';

/** Why a document was dropped: the rule that decided it, for the summary and later the preview. */
export interface DropReason {
  /** Stable key used in summaries: `include`, `exclude[2]`, `min_text_length`. */
  key: string;
  /** Human label: the expression or setting. */
  label: string;
}

export { KEEP };

export interface CompiledStream {
  /** reasons[0] = no include rule matched; reasons[1 + j] = exclude[j]; last = min_text_length. */
  reasons: DropReason[];
  minTextLengthReason: number;
  /** Documents kept by the rules and min_text_length but not drawn by `assay.sample` (after min_text_length, last). */
  sampleReason: number;
  sampling: Sampling;
  /** For each doc, KEEP or the index into `reasons` of the first rule that dropped it. */
  decide(docs: readonly Json[]): Int32Array;
  /** Spans to replace in each (kept) doc, concatenated in replacer order. */
  spans(docs: readonly Json[]): Replacement[][];
  hasSpanReplacement: boolean;
  /**
   * The merged `attributes` members the rules and span selectors can read, or null when they may read any (jq, a
   * wildcard over `attributes`, …): the shard reader then parses only these and writes the rest as read.
   */
  attributeKeys: ReadonlySet<string> | null;
}

/** Where a compiled expression came from in the config, so evaluation errors can name it. */
interface Located<T> {
  field: string;
  value: T;
}

export interface CompileOptions {
  jqTimeoutMs?: number;
}

function compileRule(expr: string, syntax: FilterSyntax, role: RuleRole, field: string, opts: CompileOptions): Located<CompiledRule> {
  try {
    const value = syntax === 'jq' ? compileJqRule(expr, role, { timeoutMs: opts.jqTimeoutMs }) : compileJsonPathRule(expr, role);
    return { field, value };
  } catch (e) {
    throw asConfigError(e, field, expr);
  }
}

function compileSelector(expr: string, syntax: FilterSyntax, field: string, opts: CompileOptions): Located<CompiledSelector> {
  try {
    const value = syntax === 'jq' ? compileJqSelector(expr, { timeoutMs: opts.jqTimeoutMs }) : compileJsonPathSelector(expr);
    return { field, value };
  } catch (e) {
    throw asConfigError(e, field, expr);
  }
}

function asConfigError(e: unknown, field: string, expr: string): AssayError {
  const msg = e instanceof FilterCompileError || e instanceof Error ? e.message : String(e);
  return new AssayError('CONFIG', `cannot compile \`${expr}\`: ${msg}`, { field, cause: e });
}

/** Thrown by evaluators; the shard processor adds the file and line of batch item `index`. */
export class DocEvalError extends Error {
  constructor(
    readonly index: number,
    message: string,
  ) {
    super(message);
  }
}

function run<T>(loc: Located<unknown>, expr: string, positions: readonly number[], f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof FilterEvalError) {
      throw new DocEvalError(positions[e.index] ?? e.index, `${loc.field} \`${expr}\` failed: ${e.message}`);
    }
    throw e;
  }
}

export function compileStream(stream: StreamConfig, streamField: string, opts: CompileOptions = {}): CompiledStream {
  const syntax = stream.filter?.syntax ?? 'jsonpath';
  const include = (stream.filter?.include ?? []).map((x, i) => compileRule(x, syntax, 'include', `${streamField}.filter.include[${i}]`, opts));
  const exclude = (stream.filter?.exclude ?? []).map((x, i) => compileRule(x, syntax, 'exclude', `${streamField}.filter.exclude[${i}]`, opts));
  const replacers = (stream.span_replacement ?? []).map((cfg, i) => compileReplacer(cfg, `${streamField}.span_replacement[${i}]`, opts));

  const reasons: DropReason[] = [
    { key: 'include', label: include.length === 0 ? '(no include rules)' : 'no include rule matched' },
    ...exclude.map((r, j) => ({ key: `exclude[${j}]`, label: r.value.expr })),
    { key: 'min_text_length', label: `text shorter than ${stream.output.min_text_length} UTF-8 bytes after trim` },
    { key: 'sample', label: samplingLabel(stream) },
  ];
  const minTextLengthReason = reasons.length - 2;
  const sampleReason = reasons.length - 1;

  const decide = (docs: readonly Json[]): Int32Array => {
    const fate = new Int32Array(docs.length).fill(include.length > 0 ? 0 : KEEP);
    if (include.length > 0) {
      // Include is an OR evaluated in order: later rules only see documents not yet included.
      let open = docs.map((_, i) => i);
      for (const rule of include) {
        if (open.length === 0) break;
        const subset = open.map((i) => docs[i] as Json);
        const hits = run(rule, rule.value.expr, open, () => rule.value.evaluate(subset));
        const next: number[] = [];
        open.forEach((docIndex, j) => (hits[j] ? (fate[docIndex] = KEEP) : next.push(docIndex)));
        open = next;
      }
    }
    let alive: number[] = [];
    fate.forEach((f, i) => f === KEEP && alive.push(i));
    exclude.forEach((rule, j) => {
      if (alive.length === 0) return;
      const subset = alive.map((i) => docs[i] as Json);
      const hits = run(rule, rule.value.expr, alive, () => rule.value.evaluate(subset));
      alive = alive.filter((docIndex, k) => {
        if (hits[k]) fate[docIndex] = 1 + j;
        return !hits[k];
      });
    });
    return fate;
  };

  const spans = (docs: readonly Json[]): Replacement[][] => {
    const out: Replacement[][] = docs.map(() => []);
    const positions = docs.map((_, i) => i);
    for (const rep of replacers) rep.collect(docs, positions, out);
    return out;
  };

  return {
    reasons,
    minTextLengthReason,
    sampleReason,
    sampling: samplingOf(stream),
    decide,
    spans,
    hasSpanReplacement: replacers.length > 0,
    attributeKeys: attributeKeysOf(stream, syntax),
  };
}

/** attributeKeysRead over a stream's JSONPath expressions; null when any of them is jq (which may read anything). */
function attributeKeysOf(stream: StreamConfig, syntax: FilterSyntax): Set<string> | null {
  const reps = stream.span_replacement ?? [];
  if (syntax === 'jq' || reps.some((r) => r.syntax === 'jq' || r.replacement.startsWith('$'))) return null;
  return attributeKeysRead([...(stream.filter?.include ?? []), ...(stream.filter?.exclude ?? [])], reps.map((r) => r.span));
}

interface CompiledReplacer {
  collect(docs: readonly Json[], positions: readonly number[], out: Replacement[][]): void;
}

function compileReplacer(cfg: SpanReplacementConfig, field: string, opts: CompileOptions): CompiledReplacer {
  const selector = compileSelector(cfg.span, cfg.syntax, `${field}.span`, opts);
  const min = cfg.min_score ?? -Infinity;
  const max = cfg.max_score ?? Infinity;
  // A leading `$` makes the replacement a jq expression over the document (Dolma src/shard.rs).
  const dynamic = cfg.replacement.startsWith('$')
    ? compileSelector(cfg.replacement.slice(1), 'jq', `${field}.replacement`, opts)
    : null;
  return {
    collect(docs, positions, out) {
      const found = run(selector, cfg.span, positions, () => selector.value.select(docs));
      const texts = dynamic ? run(dynamic, cfg.replacement, positions, () => dynamic.value.select(docs)) : null;
      found.forEach((value, i) => {
        const spans = selectedSpans(value, field, cfg.span);
        if (spans === null) return;
        if (typeof spans === 'string') throw new DocEvalError(i, spans);
        let replacement = cfg.replacement;
        if (texts) {
          const t = computedReplacement(texts[i], field, cfg.replacement);
          if (typeof t !== 'string') throw new DocEvalError(i, t.error);
          replacement = t;
        }
        for (const span of spans) if (span.score >= min && span.score < max) (out[i] as Replacement[]).push({ start: span.start, end: span.end, replacement });
      });
    },
  };
}
