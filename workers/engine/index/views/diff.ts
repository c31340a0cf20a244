// Two recipes over one index: each document's fate per stream under both (from the preview's analyses), and what moved.
import type { Count, DiffGroup, DiffSide, FateChange, RecipeDiffResult } from '../../../../shared/contract/preview.js';
import type { StreamAnalysis } from '../preview/analyze.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import type { IndexData } from '../store/data.js';
import { ruleNames } from './labels.js';

/** Per-document fate codes: OUTSIDE (not in the stream), KEPT, else the dropping rule's index (recipe order). */
export const OUTSIDE = -2;
export const KEPT = -1;

/** Fate codes of every document in each stream, by stream name (the mixer's first-rule-that-drops order). */
export function fatesByStream(streams: readonly StreamAnalysis[], n: number): Map<string, Int32Array> {
  const out = new Map<string, Int32Array>();
  for (const a of streams) {
    const codes = new Int32Array(n).fill(OUTSIDE);
    a.scope.docs.forEach((g) => (codes[g] = KEPT));
    // Sequential sets are disjoint: each dropped document is in the set of the first rule that drops it.
    for (const [rule, set] of a.sequential) set.forEach((g) => (codes[g] = rule));
    out.set(a.scope.name, codes);
  }
  return out;
}

const identity = (r: RuleSpec): string => `${r.kind}\u0000${r.syntax}\u0000${r.expression}`;

/**
 * Pairs old rules with new ones, per stream: the include block is one rule (the mixer's "no include
 * matched" — drops are attributed to its last include), min_text_length pairs with min_text_length, sample with sample,
 * an exclude pairs with the exclude of the same expression, else with the one at the same place among
 * the stream's unpaired excludes (an edited threshold is the same rule). Old rule index → new rule index.
 */
export function pairRules(oldRecipe: ParsedRecipe, newRecipe: ParsedRecipe): Map<number, number> {
  const pairs = new Map<number, number>();
  for (const [s, oldStream] of oldRecipe.config.streams.entries()) {
    const t = newRecipe.config.streams.findIndex((x) => x.name === oldStream.name);
    if (t < 0) continue;
    const olds = oldRecipe.rules.filter((r) => r.stream === s && r.kind !== 'span_replacement');
    const news = newRecipe.rules.filter((r) => r.stream === t && r.kind !== 'span_replacement');
    const lastOf = (rs: RuleSpec[], kind: string): RuleSpec | undefined => rs.filter((r) => r.kind === kind).at(-1);
    for (const kind of ['include', 'min_text_length', 'sample']) {
      const [a, b] = [lastOf(olds, kind), lastOf(news, kind)];
      if (a && b) pairs.set(a.index, b.index);
    }
    const oldEx = olds.filter((r) => r.kind === 'exclude');
    const newEx = news.filter((r) => r.kind === 'exclude');
    const taken = new Set<number>();
    for (const a of oldEx) {
      const b = newEx.find((x) => !taken.has(x.index) && identity(x) === identity(a));
      if (b === undefined) continue;
      pairs.set(a.index, b.index);
      taken.add(b.index);
    }
    const restOld = oldEx.filter((a) => !pairs.has(a.index));
    const restNew = newEx.filter((b) => !taken.has(b.index));
    restOld.forEach((a, k) => restNew[k] && pairs.set(a.index, (restNew[k] as RuleSpec).index));
  }
  return pairs;
}

/** The change from code `a` (old) to `b` (new), or null when the fate is the same. */
export function changeOf(a: number, b: number, pairs: ReadonlyMap<number, number>): FateChange | null {
  const kind = (c: number): 'kept' | 'dropped' | 'outside' => (c === KEPT ? 'kept' : c === OUTSIDE ? 'outside' : 'dropped');
  const [ka, kb] = [kind(a), kind(b)];
  if (ka !== kb) return `${ka}→${kb}` as FateChange;
  if (ka === 'dropped' && pairs.get(a) !== b) return 'rule changed';
  return null;
}

interface Sides {
  oldRecipe: ParsedRecipe;
  newRecipe: ParsedRecipe;
  oldStreams: readonly StreamAnalysis[];
  newStreams: readonly StreamAnalysis[];
}

const add = (c: Count, tokens: number): void => {
  c.docs++;
  c.tokens += tokens;
};

type GroupAcc = Omit<DiffGroup, 'sampleIds'> & { samples: number[] };

/** The diff, with sample ids looked up by `idsOf` (document numbers → ids). */
export function diffRecipes(s: Sides, data: IndexData, root: string, samples: number, idsOf: (gs: number[]) => string[], started: number): RecipeDiffResult {
  const n = data.n;
  const pairs = pairRules(s.oldRecipe, s.newRecipe);
  const olds = fatesByStream(s.oldStreams, n);
  const news = fatesByStream(s.newStreams, n);
  const none = new Int32Array(n).fill(OUTSIDE);
  const labels = new Map<string, string | undefined>();
  const side = (recipe: ParsedRecipe, tag: string, code: number): DiffSide => {
    if (code === KEPT) return { fate: 'kept' };
    if (code === OUTSIDE) return { fate: 'outside' };
    const key = `${tag}${code}`;
    if (!labels.has(key)) {
      const spec = recipe.rules.find((r) => r.index === code);
      labels.set(key, spec ? (ruleNames(spec, recipe, data, root, undefined).label ?? spec.expression) : undefined);
    }
    const label = labels.get(key);
    return { fate: 'dropped', rule: code, ...(label !== undefined ? { label } : {}) };
  };
  const groups = new Map<string, GroupAcc>();
  const byChange: Partial<Record<FateChange, Count>> = {};
  const bySource: Record<string, Partial<Record<FateChange, number>>> = {};
  const changed: Count = { docs: 0, tokens: 0 };
  const kept = { old: { docs: 0, tokens: 0 }, new: { docs: 0, tokens: 0 } };
  const names = [...new Set([...olds.keys(), ...news.keys()])];
  for (const name of names) {
    const a = olds.get(name) ?? none;
    const b = news.get(name) ?? none;
    for (let g = 0; g < n; g++) {
      const [x, y] = [a[g] as number, b[g] as number];
      const t = data.tokens[g] as number;
      if (x === KEPT) add(kept.old, t);
      if (y === KEPT) add(kept.new, t);
      if (x === y && (x === KEPT || x === OUTSIDE)) continue;
      const change = changeOf(x, y, pairs);
      if (change === null) continue;
      const source = data.sourceNames[data.source[g] as number] ?? '';
      const key = `${name}\u0000${change}\u0000${x}\u0000${y}`;
      let grp = groups.get(key);
      if (grp === undefined) {
        grp = { stream: name, change, from: side(s.oldRecipe, 'o', x), to: side(s.newRecipe, 'n', y), docs: 0, tokens: 0, bySource: {}, samples: [] };
        groups.set(key, grp);
      }
      add(grp, t);
      add((grp.bySource[source] ??= { docs: 0, tokens: 0 }), t);
      if (grp.samples.length < samples) grp.samples.push(g);
      add((byChange[change] ??= { docs: 0, tokens: 0 }), t);
      const bs = (bySource[source] ??= {});
      bs[change] = (bs[change] ?? 0) + 1;
      add(changed, t);
    }
  }
  const all = [...groups.values()].sort((p, q) => q.docs - p.docs);
  const ids = idsOf(all.flatMap((grp) => grp.samples));
  let at = 0;
  const out: DiffGroup[] = all.map(({ samples: gs, ...grp }) => ({ ...grp, sampleIds: ids.slice(at, (at += gs.length)) }));
  const ruleMap = [...pairs].map(([o, nw]) => ({ old: o, new: nw }));
  return { docs: n, changed, byChange, bySource, groups: out, kept, ruleMap, elapsedMs: Math.round((performance.now() - started) * 100) / 100 };
}
