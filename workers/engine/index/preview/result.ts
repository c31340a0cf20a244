// Assembles the contract's PreviewResult from the per-stream analysis: totals, per-rule counts, sweeps, replacements.
import type { PreviewResult, PreviewRule } from '../../../../shared/contract/preview.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import { DOC_SET } from '../store/tags.js';
import type { IndexData } from '../store/data.js';
import type { EngineState, StreamAnalysis } from './analyze.js';
import { Bitset } from './bitset.js';
import { Tally } from './counts.js';
import { countEstimate, sumEstimate } from './estimate.js';
import { ruleNames } from '../views/labels.js';
import { sweepFor } from './sweep.js';
import { replacedKept, tokenFigures } from './token-kind.js';

/** Counts of what a rule drops alone depend only on its result and the stream: computed once per result. */
const aloneTallies = new WeakMap<Bitset, Tally>();

function aloneTally(data: IndexData, b: Bitset, st?: EngineState, slot?: string): Tally {
  let t = aloneTallies.get(b);
  if (t === undefined) aloneTallies.set(b, (t = st && slot ? st.slots.tally(data, slot, b) : new Tally(data).addSet(b)));
  return t;
}

export function buildResult(recipe: ParsedRecipe, analyses: StreamAnalysis[], st: EngineState, started: number): PreviewResult {
  const data = st.data;
  const total = new Tally(data);
  const kept = new Tally(data);
  const rules: PreviewRule[] = [];
  const inStreams = new Bitset(data.n);
  const copies = new Tally(data);
  for (const a of analyses) {
    const docs = aloneTally(data, a.scope.docs);
    total.addTally(docs);
    // Sequential sets partition the dropped documents: kept = all − Σ sequential.
    kept.addTally(docs);
    const seq = new Map<number, Tally>();
    for (const [rule, set] of a.sequential) {
      const t = st.tallies.getOr(`${a.scope.key}\u0000${a.sequentialKeys.get(rule) ?? rule}`, () => st.slots.tally(data, `${a.scope.key}\u0000seq\u0000${rule}`, set));
      seq.set(rule, t);
      kept.addTally(t, -1);
    }
    const w = a.scope.docs.words;
    for (let i = 0; i < w.length; i++) inStreams.words[i]! |= w[i] as number;
    for (const [extra, set] of repeatedSets(a, data)) for (let c = 0; c < extra; c++) copies.addSet(set);
    const exclusive = exactlyOne(a);
    for (const spec of a.rules) rules.push(ruleResult(spec, a, data, recipe, exclusive, seq, st));
  }
  const dropped = new Tally(data).addTally(total).addTally(kept, -1);
  // assay.repeat: the mixer writes those documents again, so they count again among the kept (not among the read).
  kept.addTally(copies);
  const outside = data.n - inStreams.count();
  const s = data.sample;
  const design = s === null ? null : { n: s.docs, N: s.of, z: s.z };
  const outsideEstimate = design === null ? null : countEstimate(outside, design);
  return {
    total: { ...total.result(), kept: kept.result(), dropped: dropped.result() },
    rules,
    exact: s === null,
    ...(s === null ? {} : { sample: { docs: s.docs, of: s.of, fraction: s.fraction, seed: s.seed, level: s.level } }),
    tokens: tokenFigures(data, inStreams, replacedKept(analyses)),
    outsideStreams: outsideEstimate?.value ?? outside,
    ...(outsideEstimate ? { outsideStreamsCi: outsideEstimate.ci } : {}),
    elapsedMs: Math.round((performance.now() - started) * 100) / 100,
  };
}

/** Kept documents written more than once (assay.repeat), as (extra copies, documents) pairs. */
export function repeatedSets(a: StreamAnalysis, data: IndexData): Map<number, Bitset> {
  const out = new Map<number, Bitset>();
  if (!a.sampling.repeats) return out;
  const extra = data.sourceNames.map((name) => a.sampling.repeat(name) - 1);
  a.kept.forEach((g) => {
    const e = extra[data.source[g] as number] as number;
    if (e <= 0) return;
    let set = out.get(e);
    if (set === undefined) out.set(e, (set = new Bitset(data.n)));
    set.set(g);
  });
  return out;
}

/** Documents dropped by exactly one of the stream's drop sets (the include block counts once). */
function exactlyOne(a: StreamAnalysis): Bitset {
  const sets = new Set<Bitset>(a.drops.values());
  const n = a.scope.docs.words.length;
  const ones = new Uint32Array(n);
  const twos = new Uint32Array(n);
  for (const s of sets) {
    const w = s.words;
    for (let i = 0; i < n; i++) {
      twos[i]! |= (ones[i] as number) & (w[i] as number);
      ones[i]! |= w[i] as number;
    }
  }
  for (let i = 0; i < n; i++) ones[i]! &= ~(twos[i] as number);
  return new Bitset(a.scope.docs.size, ones);
}

function ruleResult(spec: RuleSpec, a: StreamAnalysis, data: IndexData, recipe: ParsedRecipe, exactlyOneSet: Bitset, seq: Map<number, Tally>, st: EngineState): PreviewRule {
  const empty = new Tally(data).result();
  const drop = a.drops.get(spec.index);
  const filter = spec.filter;
  const outcome = filter ? [...a.includes, ...a.excludes].find((f) => f.spec === spec)?.outcome : undefined;
  const path = filter ? (filter.plan.run !== null ? 'compiled' : 'exact') : spec.replacer ? (a.spans?.compiled[spec.replacer.position] ? 'compiled' : 'exact') : a.spans !== null && a.spans.touched.count() > 0 ? 'exact' : 'compiled';
  const reason =
    filter && filter.plan.run === null ? filter.plan.reason
    : filter && outcome && outcome.exact > 0 ? `${outcome.exact} document(s) with values the columns do not hold were evaluated exactly`
    : spec.replacer && path === 'exact' ? 'this selector runs the mixer\'s evaluator on each document'
    : spec.kind === 'min_text_length' && path === 'exact' ? 'text lengths after span replacement are measured on the replaced text'
    : undefined;
  const rule: PreviewRule = {
    index: spec.index,
    stream: a.scope.name,
    kind: spec.kind,
    expression: spec.expression,
    syntax: spec.syntax,
    path,
    ...(reason ? { pathReason: reason } : {}),
    ...(spec.line !== undefined ? { line: spec.line } : {}),
    alone: a.alone.has(spec.index) ? aloneTally(data, a.alone.get(spec.index) as Bitset, st, `${a.scope.key}\u0000alone\u0000${spec.index}`).result() : empty,
    exclusive: drop ? st.slots.tally(data, `${a.scope.key}\u0000excl\u0000${spec.index}`, drop.and(exactlyOneSet)).result() : empty,
    sequential: seq.get(spec.index)?.result() ?? empty,
    missingKeys: missingKeys(filter?.plan.keys ?? [], a, data),
  };
  const sweep = sweepFor(spec, a, recipe);
  if (sweep) rule.sweep = sweep;
  Object.assign(rule, ruleNames(spec, recipe, data, st.root, sweep));
  if (spec.replacer && a.spans !== null) {
    const chars = a.spans.chars.get(spec.replacer.position) as Uint32Array;
    let total = 0;
    let total2 = 0;
    let docs = 0;
    a.spans.touched.and(a.kept).forEach((g) => {
      const c = chars[g] ?? 0;
      if (c > 0) {
        total += c;
        total2 += c * c;
        docs++;
      }
    });
    const s = data.sample;
    if (s === null) rule.replacement = { chars: total, docs };
    else {
      const design = { n: s.docs, N: s.of, z: s.z };
      const d = countEstimate(docs, design);
      const c = sumEstimate(total, total2, docs, design, 0);
      rule.replacement = { chars: c.value, docs: d.value, ci: { chars: c.ci, docs: d.ci } };
    }
  }
  return rule;
}

/** Attribute keys a rule reads that no document has in the sets its stream merges (nor inline). */
export function missingKeys(keys: readonly string[], a: StreamAnalysis, data: IndexData): string[] {
  if (keys.length === 0) return [];
  const have = new Set<string>();
  for (const k of data.keys) {
    if (k.present === 0) continue;
    if (k.set === DOC_SET && k.path.length === 2 && k.path[0] === 'attributes') have.add(k.path[1] as string);
    else if (k.path.length === 1 && a.scope.merge.sets.includes(k.set)) have.add(k.path[0] as string);
  }
  return keys.filter((k) => !have.has(k));
}
