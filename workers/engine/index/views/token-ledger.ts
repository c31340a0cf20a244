// The token ledger a data lead reports: per source, documents, bytes and tokens raw → filtered → sampled → seen.
import type { LedgerStageName, SourceTokenLedger, StageFigures, TokenLedgerResult } from '../../../../shared/contract/mixplan.js';
import type { StreamAnalysis } from '../preview/analyze.js';
import type { Bitset } from '../preview/bitset.js';
import { Lru } from '../preview/lru.js';
import type { IndexData } from '../store/data.js';
import { ruleNames } from './labels.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';

/** Per-source sums of documents, UTF-8 bytes and tokens, one Float64Array each, indexed by source code. */
class Sums {
  readonly docs: Float64Array;
  readonly bytes: Float64Array;
  readonly tokens: Float64Array;
  constructor(n: number) {
    [this.docs, this.bytes, this.tokens] = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  }

  /** Adds `o` scaled per source by `times` (repeats × epochs count each copy). */
  addSums(o: Sums, times?: Float64Array, epochs = 1): this {
    for (let s = 0; s < this.docs.length; s++) {
      const k = epochs * (times ? (times[s] as number) : 1);
      this.docs[s]! += k * (o.docs[s] as number);
      this.bytes[s]! += k * (o.bytes[s] as number);
      this.tokens[s]! += k * (o.tokens[s] as number);
    }
    return this;
  }

  at(s: number): StageFigures {
    return { docs: this.docs[s] as number, bytes: this.bytes[s] as number, tokens: this.tokens[s] as number };
  }
}

const sequentialSums = new Lru<string, Sums>(512);

/** Sums of a set, cached per set: raw sets and rules' drops are the same objects from edit to edit (the analysis caches them). */
const cache = new WeakMap<Bitset, Sums>();

function sumsOf(data: IndexData, set: Bitset): Sums {
  let out = cache.get(set);
  if (out !== undefined) return out;
  out = new Sums(data.sourceNames.length);
  const { bytes, tokens, source } = data;
  const [d, b, t] = [out.docs, out.bytes, out.tokens];
  // The bit loop inline, as Tally.addSet has it: Bitset.forEach's call per document costs several times more at 10^6.
  const w = set.words;
  for (let i = 0; i < w.length; i++) {
    let x = w[i] as number;
    while (x !== 0) {
      const low = x & -x;
      const g = (i << 5) + (31 - Math.clz32(low));
      x ^= low;
      const s = source[g] as number;
      d[s]! += 1;
      b[s]! += bytes[g] as number;
      t[s]! += tokens[g] as number;
    }
  }
  cache.set(set, out);
  return out;
}

/**
 * Rules that sample rather than filter: assay.sample, and Dolma's way — a rule on a `random_number_v1` attribute
 * alone (e.g. include `…__random_number_v1__random < 0.3`). The include block counts as sampling only when all of
 * its rules are, since the mixer cannot say which include a document missed.
 */
export function isSamplingRule(spec: RuleSpec, a: StreamAnalysis): boolean {
  if (spec.kind === 'sample') return true;
  const onlyRandom = (r: RuleSpec): boolean => (r.filter?.plan.keys.length ?? 0) > 0 && (r.filter?.plan.keys ?? []).every((k) => /random_number_v1/.test(k));
  if (spec.kind === 'include') return a.includes.every((f) => onlyRandom(f.spec));
  return spec.kind === 'exclude' && onlyRandom(spec);
}

const filteredSets = new WeakMap<StreamAnalysis, Bitset>();

/** What every rule but the sampling ones keeps: the stream's documents minus each filtering rule's drops. */
function filteredSet(a: StreamAnalysis): Bitset {
  const hit = filteredSets.get(a);
  if (hit !== undefined) return hit;
  let out = a.scope.docs;
  for (const spec of a.rules) {
    const drop = a.drops.get(spec.index);
    if (drop !== undefined && !isSamplingRule(spec, a)) out = out.andNot(drop);
  }
  filteredSets.set(a, out);
  return out;
}

const zero = (): StageFigures => ({ docs: 0, bytes: 0, tokens: 0 });
const plus = (a: StageFigures, b: StageFigures): StageFigures => ({ docs: a.docs + b.docs, bytes: a.bytes + b.bytes, tokens: a.tokens + b.tokens });

/**
 * Stages per source summed over the streams (a document two streams read counts in each, as the mixer writes it
 * twice): raw = the stream's documents; filtered = what every rule but the sampling ones keeps (isSamplingRule); sampled = what the mixer
 * keeps; seen = sampled × the stream's repeat for the source × epochs. `tokens` says what the token figures are.
 */
export function tokenLedger(recipe: ParsedRecipe, streams: readonly StreamAnalysis[], data: IndexData, root: string, tokens: TokenLedgerResult['tokens'], epochs: number, started: number): TokenLedgerResult {
  const n = data.sourceNames.length;
  const [raw, filtered, sampled, seen] = [new Sums(n), new Sums(n), new Sums(n), new Sums(n)];
  const lost = new Map<string, { rule: number; label: string; sums: Sums }>();
  for (const a of streams) {
    raw.addSums(sumsOf(data, a.scope.docs));
    filtered.addSums(sumsOf(data, filteredSet(a)));
    const kept = sumsOf(data, a.kept);
    sampled.addSums(kept);
    seen.addSums(kept, Float64Array.from(data.sourceNames, (name) => a.sampling.repeat(name)), epochs);
    for (const spec of a.rules) {
      const set = a.sequential.get(spec.index);
      if (set === undefined) continue;
      const label = ruleNames(spec, recipe, data, root, undefined).label ?? spec.expression;
      // Sequential sets are new objects each analysis; what they depend on names them across edits.
      const key = `${a.scope.key}\u0000${a.sequentialKeys.get(spec.index) ?? ''}`;
      const sums = a.sequentialKeys.has(spec.index) ? sequentialSums.getOr(key, () => sumsOf(data, set)) : sumsOf(data, set);
      lost.set(`${a.scope.name}\u0000${spec.index}`, { rule: spec.index, label: `[${a.scope.name}] ${label}`, sums });
    }
  }
  const totalSeen = seen.tokens.reduce((x, y) => x + y, 0);
  const sources: SourceTokenLedger[] = [];
  data.sourceNames.forEach((source, s) => {
    const r = raw.at(s);
    if (r.docs === 0) return;
    const [f, sm, se] = [filtered.at(s), sampled.at(s), seen.at(s)];
    sources.push({
      source,
      raw: r,
      filtered: f,
      sampled: sm,
      seen: se,
      sampleRate: f.tokens > 0 ? sm.tokens / f.tokens : 1,
      repeat: sm.docs > 0 ? se.docs / epochs / sm.docs : 1,
      share: totalSeen > 0 ? se.tokens / totalSeen : 0,
      lostByRule: [...lost.values()].map((l) => ({ rule: l.rule, label: l.label, ...pick(l.sums.at(s)) })).filter((l) => l.docs > 0),
    });
  });
  sources.sort((x, y) => y.seen.tokens - x.seen.tokens || (x.source < y.source ? -1 : 1));
  const total = Object.fromEntries((['raw', 'filtered', 'sampled', 'seen'] as LedgerStageName[]).map((k) => [k, sources.reduce((acc, x) => plus(acc, x[k]), zero())])) as Record<LedgerStageName, StageFigures>;
  return { sources, total, epochs, tokens, elapsedMs: Math.round((performance.now() - started) * 100) / 100 };
}

const pick = (f: StageFigures): { docs: number; tokens: number } => ({ docs: f.docs, tokens: f.tokens });
