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
  const u = units(seed);
  const bySource = new Map<number, { u: number; tokens: number }[]>();
  for (const a of streams) {
    a.kept.forEach((g) => {
      const s = data.source[g] as number;
      let list = bySource.get(s);
      if (list === undefined) bySource.set(s, (list = []));
      list.push({ u: u[g] as number, tokens: data.tokens[g] as number });
    });
  }
  const filtered = new Map(data.sourceNames.map((name, s) => [name, (bySource.get(s) ?? []).reduce((t, d) => t + d.tokens, 0)]));
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
    const docs = (bySource.get(data.sourceNames.indexOf(name)) ?? []).sort((a, b) => a.u - b.u);
    const have = filtered.get(name) ?? 0;
    const target = req.budget * share;
    const repeat = Math.max(1, Math.ceil(target / have - 1e-12));
    const want = target / repeat;
    let cum = 0;
    let j = -1;
    while (j + 1 < docs.length && cum + (docs[j + 1] as { tokens: number }).tokens <= want) cum += (docs[++j] as { tokens: number }).tokens;
    // Keep the documents placed below the next one's position; ties (a document two streams read) go together.
    while (j >= 0 && j + 1 < docs.length && (docs[j + 1] as { u: number }).u === (docs[j] as { u: number }).u) cum -= (docs[j--] as { tokens: number }).tokens;
    const next = docs[j + 1]?.u;
    const fraction = next === undefined ? 1 : Math.max(next, Number.MIN_VALUE);
    choices.push({ source: name, fraction, repeat, sampledTokens: cum, seenTokens: cum * repeat, target: share });
  }
  return { feasible: true, seed, choices };
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
