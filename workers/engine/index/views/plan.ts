// The mix planner: per-source sample fractions and repeats that meet a token budget and target shares, or why not.
import { isMap, parseDocument, type Document } from 'yaml';
import type { PlanRequest } from '../../../../shared/contract/mixplan.js';
import { AssayError } from '../../errors.js';
import type { StreamAnalysis } from '../preview/analyze.js';
import type { IndexData } from '../store/data.js';

export interface PlanChoice {
  source: string;
  fraction: number;
  repeat: number;
  /** Tokens the mixer will keep (sampled) and write (× repeat). */
  sampledTokens: number;
  seenTokens: number;
  target: number;
}

export type PlanOutcome = { feasible: true; seed: number; choices: PlanChoice[] } | { feasible: false; source: string; reason: string };

const fmt = (x: number): string => (x >= 1e5 ? x.toExponential(2) : x.toLocaleString('en-US', { maximumFractionDigits: 2 }));
const show = (s: string): string => (s === '' ? "'' (no source)" : s);

/** The recipe without assay.sample / assay.repeat: what the rules alone keep (the planner's "filtered"). */
export function withoutSampling(text: string): string {
  const doc = parseDocument(text);
  const streams = doc.get('streams');
  if (!isMap(doc.contents) || streams === undefined || !('items' in (streams as object))) return text;
  ((streams as { items: unknown[] }).items).forEach((_, i) => {
    const assay = doc.getIn(['streams', i, 'assay']);
    if (!isMap(assay)) return;
    assay.delete('sample');
    assay.delete('repeat');
    if (assay.items.length === 0) doc.deleteIn(['streams', i, 'assay']);
  });
  return doc.toString();
}

/**
 * For each source: repeat = ⌈target tokens / filtered tokens⌉ (refused past max_repetitions), then the fraction is
 * the sampling position below which the documents' tokens (in the order the mixer's hash puts them) reach
 * target ÷ repeat without passing it. So the mix realises the plan to within one document per source, under the
 * budget, and every figure is what `assay mix` will write.
 */
export function planMix(streams: readonly StreamAnalysis[], data: IndexData, units: (seed: number) => Float64Array, req: PlanRequest, seed: number): PlanOutcome {
  if (!(req.budget > 0) || !Number.isFinite(req.budget)) throw new AssayError('CONFIG', `the budget must be a positive number of tokens, not ${req.budget}`, { field: 'budget' });
  const sum = Object.values(req.targets).reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-6) throw new AssayError('CONFIG', `target shares must add up to 1 (they add up to ${fmt(sum)})`, { field: 'targets' });
  const order = orderedBySource(streams, data, units, seed);
  const filtered = new Map(data.sourceNames.map((name, s) => [name, order.get(s)?.cum.at(-1) ?? 0]));
  for (const [name, t] of filtered) if (t > 0 && !(name in req.targets)) return { feasible: false, source: name, reason: `${show(name)} has ${fmt(t)} filtered tokens but no target; give it one, or drop it with a rule` };
  const maxRep = req.maxRepetitions ?? 1;
  const maxFrac = req.maxSourceFraction ?? 1;
  let binding: { source: string; ratio: number; reason: string } | null = null;
  for (const [name, share] of Object.entries(req.targets)) {
    const have = filtered.get(name) ?? 0;
    const need = req.budget * share;
    if (!(share > 0)) return { feasible: false, source: name, reason: `${show(name)}: a target share must be above 0 (sampling cannot remove a source; drop it with a rule)` };
    if (share > maxFrac + 1e-12) return { feasible: false, source: name, reason: `${show(name)}: target share ${fmt(share)} is above max_source_fraction ${fmt(maxFrac)}` };
    const ratio = have > 0 ? need / (have * maxRep) : Infinity;
    if (ratio > 1 && (binding === null || ratio > binding.ratio)) {
      binding = { source: name, ratio, reason: `${show(name)}: needs ${fmt(need)} tokens (${fmt(share)} of ${fmt(req.budget)}), has ${fmt(have)} filtered × max_repetitions ${maxRep} = ${fmt(have * maxRep)}` };
    }
  }
  if (binding) return { feasible: false, source: binding.source, reason: binding.reason };
  const choices: PlanChoice[] = [];
  for (const [name, share] of Object.entries(req.targets)) {
    const o = order.get(data.sourceNames.indexOf(name)) as Ordered;
    const target = req.budget * share;
    const repeat = Math.max(1, Math.ceil(target / (filtered.get(name) as number) - 1e-12));
    // The most documents, in sampling order, whose tokens stay within target ÷ repeat.
    let k = upperBound(o.cum, target / repeat) - 1;
    // Keep the documents placed below the next one's position; ties (a document two streams read) go together.
    while (k > 0 && k < o.u.length && o.u[k] === o.u[k - 1]) k--;
    const next = k < o.u.length ? (o.u[k] as number) : undefined;
    const fraction = next === undefined ? 1 : shortestIn(k > 0 ? (o.u[k - 1] as number) : 0, next);
    const sampled = o.cum[k] as number;
    choices.push({ source: name, fraction, repeat, sampledTokens: sampled, seenTokens: sampled * repeat, target: share });
  }
  return { feasible: true, seed, choices };
}

/** The decimal with fewest digits in (lo, hi]: the same documents fall below it as below hi, and the YAML stays readable. */
export function shortestIn(lo: number, hi: number): number {
  for (let d = 1; d <= 17; d++) {
    const f = Math.floor(hi * 10 ** d) / 10 ** d;
    if (f > lo && f <= hi) return f;
  }
  return Math.max(hi, Number.MIN_VALUE);
}

/** A source's filtered documents in sampling order: positions ascending and cum[k] = tokens of the first k. */
interface Ordered {
  u: Float64Array;
  cum: Float64Array;
}

const ordered = new WeakMap<readonly StreamAnalysis[], Map<number, Map<number, Ordered>>>();

/** Sorted once per analysis and seed (≈ a second at 10^6 documents), so each planner update is a binary search per source. */
function orderedBySource(streams: readonly StreamAnalysis[], data: IndexData, units: (seed: number) => Float64Array, seed: number): Map<number, Ordered> {
  let bySeed = ordered.get(streams);
  if (bySeed === undefined) ordered.set(streams, (bySeed = new Map()));
  const hit = bySeed.get(seed);
  if (hit !== undefined) return hit;
  const u = units(seed);
  const lists = new Map<number, number[]>();
  for (const a of streams) {
    a.kept.forEach((g) => {
      const s = data.source[g] as number;
      let l = lists.get(s);
      if (l === undefined) lists.set(s, (l = []));
      l.push(g);
    });
  }
  const out = new Map<number, Ordered>();
  for (const [s, gs] of lists) {
    gs.sort((x, y) => (u[x] as number) - (u[y] as number) || x - y);
    const cum = new Float64Array(gs.length + 1);
    gs.forEach((g, k) => (cum[k + 1] = (cum[k] as number) + (data.tokens[g] as number)));
    out.set(s, { u: Float64Array.from(gs, (g) => u[g] as number), cum });
  }
  bySeed.set(seed, out);
  return out;
}

/** The first k with cum[k] > x (cum ascending): the count of prefixes within x, plus one. */
function upperBound(cum: Float64Array, x: number): number {
  let lo = 0;
  let hi = cum.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((cum[mid] as number) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The recipe with every stream's assay.sample / assay.repeat set to the plan (per source maps), comments kept. */
export function writeSampling(text: string, choices: readonly PlanChoice[], seed: number): string {
  const doc: Document = parseDocument(withoutSampling(text));
  const fraction = Object.fromEntries(choices.filter((c) => c.fraction < 1).map((c) => [c.source, c.fraction]));
  const repeat = Object.fromEntries(choices.filter((c) => c.repeat > 1).map((c) => [c.source, c.repeat]));
  const streams = doc.get('streams') as { items: unknown[] } | undefined;
  (streams?.items ?? []).forEach((_, i) => {
    if (Object.keys(fraction).length > 0) doc.setIn(['streams', i, 'assay', 'sample'], doc.createNode({ fraction, seed }));
    if (Object.keys(repeat).length > 0) doc.setIn(['streams', i, 'assay', 'repeat'], doc.createNode(repeat));
  });
  return doc.toString();
}
