// Kept and dropped totals per source, from the preview's totals (the CLI prints the same split).
import type { Count, PreviewResult } from '../../../shared/contract/index.js';

export interface SourceTotal {
  source: string;
  /** Documents of this source in the streams. */
  all: Count;
  kept: Count;
  dropped: Count;
}

const ZERO: Count = { docs: 0, tokens: 0 };

/** One row per source the totals mention, largest first (ties by name). */
export function sourceTotals(result: PreviewResult): SourceTotal[] {
  const t = result.total;
  const names = new Set([...Object.keys(t.bySource), ...Object.keys(t.kept.bySource), ...Object.keys(t.dropped.bySource)]);
  return [...names]
    .map((source) => ({ source, all: t.bySource[source] ?? ZERO, kept: t.kept.bySource[source] ?? ZERO, dropped: t.dropped.bySource[source] ?? ZERO }))
    .sort((a, b) => b.all.docs - a.all.docs || a.source.localeCompare(b.source));
}
