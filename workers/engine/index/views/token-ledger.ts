// The token ledger a data lead reports: per source, documents, bytes and tokens raw → filtered → sampled → seen.
import type { LedgerStageName, SourceTokenLedger, StageFigures, TokenLedgerResult } from '../../../../shared/contract/mixplan.js';
import type { StreamAnalysis } from '../preview/analyze.js';
import type { Bitset } from '../preview/bitset.js';
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

  /** Adds `set` `times` times (repeats count each copy). */
  add(data: IndexData, set: Bitset, times = 1, perSource?: Float64Array): this {
    const { bytes, tokens, source } = data;
    set.forEach((g) => {
      const s = source[g] as number;
      const k = times * (perSource ? (perSource[s] as number) : 1);
      this.docs[s]! += k;
      this.bytes[s]! += k * (bytes[g] as number);
      this.tokens[s]! += k * (tokens[g] as number);
    });
    return this;
  }

  at(s: number): StageFigures {
    return { docs: this.docs[s] as number, bytes: this.bytes[s] as number, tokens: this.tokens[s] as number };
  }
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

/** What every rule but the sampling ones keeps: the stream's documents minus each filtering rule's drops. */
function filteredSet(a: StreamAnalysis): Bitset {
  let out = a.scope.docs;
  for (const spec of a.rules) {
    const drop = a.drops.get(spec.index);
    if (drop !== undefined && !isSamplingRule(spec, a)) out = out.andNot(drop);
  }
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
    raw.add(data, a.scope.docs);
    filtered.add(data, filteredSet(a));
    sampled.add(data, a.kept);
    const repeat = Float64Array.from(data.sourceNames, (name) => a.sampling.repeat(name));
    seen.add(data, a.kept, epochs, repeat);
    for (const spec of a.rules) {
      const set = a.sequential.get(spec.index);
      if (set === undefined) continue;
      const label = ruleNames(spec, recipe, data, root, undefined).label ?? spec.expression;
      lost.set(`${a.scope.name}\u0000${spec.index}`, { rule: spec.index, label: `[${a.scope.name}] ${label}`, sums: new Sums(n).add(data, set) });
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
