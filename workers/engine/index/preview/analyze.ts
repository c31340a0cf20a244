// Evaluates a compiled recipe over the index the way `assay mix` runs it: which rule drops which document, and failures.
import { join } from 'node:path';
import { AssayError } from '../../errors.js';
import { EvalContext, type MergeScope } from '../recipe/context.js';
import { evaluateRule, exactFailure, type RuleOutcome } from '../recipe/evaluate.js';
import type { Materializer } from '../recipe/materialize.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import { resolveStreams, type StreamScope } from '../recipe/streams.js';
import { ruleProgress } from '../rule-progress.js';
import type { IndexData } from '../store/data.js';
import { T } from '../store/tags.js';
import { Bitset } from './bitset.js';
import type { Tally, TallySlots } from './counts.js';
import type { Lru } from './lru.js';
import { spanOutcome, type SpanOutcome } from './spans.js';
import { samplingOf, type Sampling } from '../../mix/sample.js';

export interface EngineState {
  data: IndexData;
  root: string;
  /** Where relative `documents` globs resolve (the CLI: its working directory; the app: the workspace root). */
  baseDir?: string;
  mat: Materializer;
  merges: Map<string, MergeScope>;
  contexts: Map<string, EvalContext>;
  outcomes: Lru<string, RuleOutcome>;
  spans: Lru<string, SpanOutcome>;
  /** min_text_length drops per stream, span configuration and bound. */
  shorts: Lru<string, Bitset>;
  /** assay.sample's undrawn documents per stream and sampling settings. */
  samples: Lru<string, Bitset>;
  /** Each document's sampling position for a seed (mix/sample.ts sampleUnit of its id), read from the index once per seed. */
  units: (seed: number) => Float64Array;
  /** Counts of sequential sets, keyed by what they depend on. */
  tallies: Lru<string, Tally>;
  /** Each rule's last counted sets, so an edit's counts are the last ones plus what changed. */
  slots: TallySlots;
  /** Resolved stream documents, by globs and attribute sets. */
  scopes: Map<string, Omit<StreamScope, 'index' | 'name' | 'field' | 'config'>>;
}

/** Rule results are cached (outcomes are only evaluated inside their stream), so what an include drops alone is too. */
const includeAlone = new WeakMap<RuleOutcome, Bitset>();

const ids = new WeakMap<object, number>();
let nextId = 1;
/** A small number naming a cached object, for cache keys built from several of them. */
function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) ids.set(o, (id = nextId++));
  return id;
}

export interface FilterAnalysis {
  spec: RuleSpec;
  outcome: RuleOutcome;
}

export interface StreamAnalysis {
  scope: StreamScope;
  ctx: EvalContext;
  rules: RuleSpec[];
  includes: FilterAnalysis[];
  excludes: FilterAnalysis[];
  spans: SpanOutcome | null;
  minLen: number;
  /** Stream documents no include rule matches (all match when there are none). */
  includeDrop: Bitset;
  /** Documents dropped by each rule in recipe order (the include block is attributed to its last rule). */
  sequential: Map<number, Bitset>;
  /** What each sequential set depends on (the results of the rules up to it), as a cache key. */
  sequentialKeys: Map<number, string>;
  /** What each rule would drop alone. */
  alone: Map<number, Bitset>;
  /** Documents each rule drops among the rules of its stream (the include block is one of them). */
  drops: Map<number, Bitset>;
  /** Documents whose trimmed output text is shorter than min_text_length (null when the recipe has none). */
  short: Bitset | null;
  /** Documents the include and exclude rules keep (span replacement and min_text_length see these). */
  afterFilters: Bitset;
  /** Stream documents assay.sample does not draw (null without sampling); only those otherwise kept are dropped. */
  notSampled: Bitset | null;
  sampling: Sampling;
  kept: Bitset;
}

export function analyze(recipe: ParsedRecipe, st: EngineState): StreamAnalysis[] {
  const scopes = resolveStreams(recipe.config, st.data, st.root, st.merges, st.scopes, st.baseDir);
  // Each stream evaluates its own rules (columns load as a rule first needs them): the unit of a preview's progress.
  const count = { done: 0, total: scopes.reduce((n, s) => n + recipe.rules.filter((r) => r.stream === s.index && r.filter).length, 0) };
  ruleProgress(0, count.total);
  const out = scopes.map((scope) => analyzeStream(recipe, scope, st, count));
  for (const a of out) throwReachedFailure(a, st);
  return out;
}

function contextFor(scope: StreamScope, st: EngineState): EvalContext {
  let c = st.contexts.get(scope.merge.key);
  if (c === undefined) st.contexts.set(scope.merge.key, (c = new EvalContext(st.data, scope.merge)));
  return c;
}

function analyzeStream(recipe: ParsedRecipe, scope: StreamScope, st: EngineState, count: { done: number; total: number }): StreamAnalysis {
  const ctx = contextFor(scope, st);
  const rules = recipe.rules.filter((r) => r.stream === scope.index);
  const filters = rules.flatMap((spec) => {
    if (!spec.filter) return [];
    const f = spec.filter;
    const key = `${scope.key}\u0000${spec.syntax}\u0000${f.kind}\u0000${spec.expression}`;
    const outcome = st.outcomes.getOr(key, () => evaluateRule(f.plan, f.rule, scope, ctx, st.mat));
    ruleProgress(++count.done, count.total);
    return [{ spec, outcome }];
  });
  const includes = filters.filter((f) => f.spec.kind === 'include');
  const excludes = filters.filter((f) => f.spec.kind === 'exclude');
  const M = scope.docs;
  let incHit = M;
  if (includes.length > 0) {
    incHit = new Bitset(st.data.n);
    for (const f of includes) incHit = incHit.or(f.outcome.hits);
    incHit = incHit.and(M);
  }
  const includeDrop = M.andNot(incHit);
  const sequential = new Map<number, Bitset>();
  const sequentialKeys = new Map<number, string>();
  let chain = `${idOf(M)}|${includes.map((f) => idOf(f.outcome)).join(',')}|`;
  const alone = new Map<number, Bitset>();
  const drops = new Map<number, Bitset>();
  const lastInclude = includes[includes.length - 1];
  for (const f of includes) {
    sequential.set(f.spec.index, f === lastInclude ? includeDrop : new Bitset(st.data.n));
    sequentialKeys.set(f.spec.index, `${chain}${f === lastInclude ? 'last' : 'none'}`);
    let a = includeAlone.get(f.outcome);
    if (a === undefined) includeAlone.set(f.outcome, (a = M.andNot(f.outcome.hits)));
    alone.set(f.spec.index, a);
    drops.set(f.spec.index, includeDrop);
  }
  let alive = incHit;
  for (const f of excludes) {
    const hits = f.outcome.hits;
    chain += `${idOf(f.outcome)},`;
    sequential.set(f.spec.index, alive.and(hits));
    sequentialKeys.set(f.spec.index, chain);
    alone.set(f.spec.index, hits);
    drops.set(f.spec.index, hits);
    alive = alive.andNot(hits);
  }
  const replacers = rules.flatMap((r) => (r.replacer ? [r.replacer] : []));
  const spanKey = `${scope.key}\u0000${JSON.stringify(scope.config.span_replacement ?? [])}`;
  const spans = replacers.length > 0 ? st.spans.getOr(spanKey, () => spanOutcome(replacers, scope, ctx, st.mat, st.data)) : null;
  const minLen = scope.config.output.min_text_length;
  const afterFilters = alive;
  let short: Bitset | null = null;
  const minRule = rules.find((r) => r.kind === 'min_text_length');
  if (minLen > 0 && minRule) {
    const textOk = !scope.config.output.discard_fields.includes('text');
    short = st.shorts.getOr(`${spanKey}\u0000${minLen}\u0000${textOk}`, () => {
      const s = new Bitset(st.data.n);
      const trimmed = spans !== null && spans.touched.count() > 0 ? spans.trimmed() : st.data.trimmed;
      const tags = st.data.textTag;
      M.forEach((g) => {
        if (textOk && tags[g] === T.STR && (trimmed[g] as number) < minLen) s.set(g);
      });
      return s;
    });
    sequential.set(minRule.index, alive.and(short));
    sequentialKeys.set(minRule.index, `${chain}|${idOf(short)}`);
    alone.set(minRule.index, short);
    drops.set(minRule.index, short);
    alive = alive.andNot(short);
    chain += `|${idOf(short)}`;
  }
  const sampling = samplingOf(scope.config);
  const sampleRule = rules.find((r) => r.kind === 'sample');
  let notSampled: Bitset | null = null;
  if (sampleRule) {
    notSampled = st.samples.getOr(`${scope.key}\u0000${JSON.stringify(scope.config.assay?.sample)}`, () => {
      const s = new Bitset(st.data.n);
      const u = st.units(sampling.seed);
      const fraction = st.data.sourceNames.map((name) => sampling.fraction(name));
      const source = st.data.source;
      // A word at a time (the planner recomputes this on every update): bits of M whose position is not below the fraction.
      const [m, out] = [M.words, s.words];
      for (let i = 0; i < m.length; i++) {
        let x = m[i] as number;
        let bits = 0;
        while (x !== 0) {
          const low = x & -x;
          const b = 31 - Math.clz32(low);
          x ^= low;
          const g = (i << 5) + b;
          if ((u[g] as number) >= (fraction[source[g] as number] as number)) bits |= 1 << b;
        }
        out[i] = bits >>> 0;
      }
      return s;
    });
    sequential.set(sampleRule.index, alive.and(notSampled));
    sequentialKeys.set(sampleRule.index, `${chain}|${idOf(notSampled)}`);
    alone.set(sampleRule.index, notSampled);
    drops.set(sampleRule.index, notSampled);
    alive = alive.andNot(notSampled);
  }
  return { scope, ctx, rules, includes, excludes, spans, minLen, includeDrop, sequential, sequentialKeys, alone, drops, short, afterFilters, notSampled, sampling, kept: alive };
}

interface Failure {
  /** Document number, or a file's first document minus a half for problems found when opening the file. */
  g: number;
  fileId: number;
  raise: () => AssayError;
}

/** `assay mix` stops at the first failing document it reaches; so does the preview, with the mixer's message. */
function throwReachedFailure(a: StreamAnalysis, st: EngineState): void {
  const failures: Failure[] = a.scope.problems.map((p) => ({ g: p.file.start - 0.5, fileId: p.file.id, raise: () => p.error }));
  const M = a.scope.docs;
  const at = (g: number): { file: string; line: number } => {
    const f = st.data.fileOf(g);
    return { file: join(st.root, f.path), line: st.data.ordOf(f, g) + 1 };
  };
  const filterFailure = (f: FilterAnalysis, reached: Bitset): void => {
    if (f.outcome.errorCount === 0) return;
    const hit = f.outcome.errors.and(reached).slice(0, 1)[0];
    if (hit === undefined) return;
    failures.push({
      g: hit,
      fileId: st.data.fileOf(hit).id,
      raise: () => {
        const msg = f.outcome.messages.get(hit) ?? exactFailure(f.spec.filter!.rule, st.mat.merged(hit, a.scope.merge.sets));
        if (msg === null) return new AssayError('INTERNAL', `the compiled and exact evaluations of ${f.spec.field} disagree on this document`, at(hit));
        return new AssayError('FILTER', `${f.spec.field} \`${f.spec.expression}\` failed: ${msg}`, at(hit));
      },
    });
  };
  // The documents each rule is evaluated on in the mixer: includes on those no earlier include
  // matched, excludes on those still kept; built only up to the last rule that fails somewhere.
  let open = M;
  a.includes.forEach((f, i) => {
    filterFailure(f, open);
    if (a.includes.slice(i + 1).some((x) => x.outcome.errorCount > 0)) open = open.andNot(f.outcome.hits);
  });
  let reached = M.andNot(a.includeDrop);
  a.excludes.forEach((f, i) => {
    filterFailure(f, reached);
    if (a.excludes.slice(i + 1).some((x) => x.outcome.errorCount > 0)) reached = reached.andNot(f.outcome.hits);
  });
  const alive = a.afterFilters;
  if (a.spans !== null && a.spans.messages.size > 0) {
    const hit = a.spans.errors.and(alive).slice(0, 1)[0];
    if (hit !== undefined) {
      const m = a.spans.messages.get(hit);
      failures.push({ g: hit, fileId: st.data.fileOf(hit).id, raise: () => new AssayError(m?.code ?? 'FILTER', m?.message ?? 'span replacement failed', at(hit)) });
    }
  }
  if (a.minLen > 0) {
    const textOk = !a.scope.config.output.discard_fields.includes('text');
    const bad = (textOk ? alive.and(st.data.nonStringText()) : alive).slice(0, 1)[0];
    if (bad !== undefined) failures.push({ g: bad, fileId: st.data.fileOf(bad).id, raise: () => new AssayError('PARSE', "min_text_length needs a string 'text' field", at(bad)) });
  }
  if (failures.length === 0) return;
  const order = new Map(a.scope.files.map((f, i) => [f.id, i]));
  const rank = (f: Failure): number => (order.get(f.fileId) ?? 0) * 2 ** 32 + f.g;
  failures.sort((x, y) => rank(x) - rank(y));
  throw (failures[0] as Failure).raise();
}
