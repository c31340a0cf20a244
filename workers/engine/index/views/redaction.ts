// Which kept documents span replacement changes, and by which rules, from the preview's per-document replacement counts.
import type { StreamAnalysis } from '../preview/analyze.js';
import { Bitset } from '../preview/bitset.js';

/**
 * Kept documents whose output text differs from their text. Mostly decided by lengths the preview
 * already measured; only same-length replacements read the text (see SpanOutcome.changed).
 */
export function redactedSet(streams: readonly StreamAnalysis[], n: number): Bitset {
  let out = new Bitset(n);
  for (const a of streams) if (a.spans !== null) out = out.or(a.spans.changed(a.kept));
  return out;
}

/**
 * The span_replacement rules (recipe indexes) that redacted a kept document, or undefined when its
 * output equals its text. A rule counts when it replaced characters of this document — the figure
 * PreviewRule.replacement sums — or, for Dolma's zero-width spans that replace none, when it had a span.
 */
export function redactorsOf(a: StreamAnalysis, g: number): number[] | undefined {
  const spans = a.spans;
  if (spans === null || !a.kept.has(g) || !spans.differs(g)) return undefined;
  const specs = a.rules.filter((r) => r.replacer !== undefined);
  const by = specs.filter((r) => (spans.chars.get(r.replacer?.position ?? -1)?.[g] ?? 0) > 0).map((r) => r.index);
  if (by.length > 0) return by;
  const had = new Set((spans.reps.get(g) ?? []).map((rep) => rep.rule));
  return specs.filter((r) => had.has(r.replacer?.position ?? -1)).map((r) => r.index);
}
