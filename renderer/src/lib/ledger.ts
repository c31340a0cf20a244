// The token ledger panel's arithmetic: target shares that always add up to 1, and the stacked bars per stage and source.
import type { LedgerStageName, PlanResult, TokenLedgerResult } from '../../../shared/contract/index.js';

export const STAGES: readonly LedgerStageName[] = ['raw', 'filtered', 'sampled', 'seen'];
export type LedgerMeasure = 'tokens' | 'docs' | 'bytes';

/** Shares to whole permille (largest remainder, so they add up to exactly 1): what a slider starts at. */
export function roundShares(shares: Record<string, number>): Record<string, number> {
  const entries = Object.entries(shares);
  const sum = entries.reduce((a, [, v]) => a + Math.max(0, v), 0);
  if (entries.length === 0) return {};
  const exact = entries.map(([k, v]) => [k, sum > 0 ? (1000 * Math.max(0, v)) / sum : 1000 / entries.length] as const);
  const floors = exact.map(([k, v]) => [k, Math.floor(v), v - Math.floor(v)] as const);
  let left = 1000 - floors.reduce((a, [, f]) => a + f, 0);
  const order = [...floors].sort((a, b) => b[2] - a[2] || a[0].localeCompare(b[0]));
  const bump = new Set<string>();
  for (const [k] of order) if (left-- > 0) bump.add(k);
  return Object.fromEntries(floors.map(([k, f]) => [k, (f + (bump.has(k) ? 1 : 0)) / 1000]));
}

/** The planner's starting targets: each source's current share of what training sees. */
export const targetsFromLedger = (l: TokenLedgerResult): Record<string, number> => roundShares(Object.fromEntries(l.sources.map((s) => [s.source, s.share])));

/**
 * One source's target set to `value`; the others keep their proportions among themselves and share what is
 * left, so moving one slider always leaves a plan that adds up to 1 (others all at 0 split the rest evenly).
 */
export function setTarget(targets: Record<string, number>, source: string, value: number): Record<string, number> {
  const v = Math.min(1, Math.max(0, value));
  const others = Object.keys(targets).filter((k) => k !== source);
  const rest = others.reduce((a, k) => a + (targets[k] ?? 0), 0);
  const next: Record<string, number> = { [source]: v };
  for (const k of others) next[k] = rest > 0 ? ((targets[k] ?? 0) / rest) * (1 - v) : (1 - v) / others.length;
  // Keep the sources' order as they were listed.
  return Object.fromEntries(Object.keys({ ...targets, ...next }).map((k) => [k, next[k] ?? 0]));
}

export const targetTotal = (targets: Record<string, number>): number => Object.values(targets).reduce((a, b) => a + b, 0);

/** Stacked bars: one series per source, one bar per stage. */
export function stageSeries(l: TokenLedgerResult, measure: LedgerMeasure): { source: string; values: number[] }[] {
  return l.sources.map((s) => ({ source: s.source, values: STAGES.map((st) => s[st][measure]) }));
}

/** A source's name as shown: documents without a `source` field are '' in the ledger. */
export const sourceName = (s: string): string => s || '(no source)';

/** `2e9`, `2,000,000,000`, `2G`, `1.5M`: a token budget typed by a person; null when it is not a positive number. */
export function parseBudget(text: string): number | null {
  const t = text.trim().replace(/[,_\s]/g, '');
  const m = /^(\d+(?:\.\d+)?(?:e\d+)?)([kKmMgGbBtT]?)$/.exec(t);
  if (!m) return null;
  const mult = { '': 1, k: 1e3, m: 1e6, g: 1e9, b: 1e9, t: 1e12 }[(m[2] ?? '').toLowerCase()] ?? 1;
  const v = Number(m[1]) * mult;
  return Number.isFinite(v) && v > 0 ? v : null;
}

/** An infeasible plan's binding source and why (the engine's reason usually names the source first already). */
export function refusalText(r: Extract<PlanResult, { feasible: false }>): string {
  return r.reason.startsWith(`${r.source}:`) ? r.reason : `${sourceName(r.source)}: ${r.reason}`;
}
