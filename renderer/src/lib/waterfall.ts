// The sequential-drop waterfall: documents entering the streams, each rule's sequential drop, what is kept.
import type { PreviewResult } from '../../../shared/contract/index.js';
import { ruleLabel, ruleTitle } from './ruleLabel.js';

export type Measure = 'docs' | 'tokens';

export interface WaterfallBar {
  label: string;
  /** The hover: for a rule, its number, kind and full expression. */
  title: string;
  /** Invisible offset under the bar (the running remainder after the drop). */
  base: number;
  value: number;
  kind: 'start' | 'drop' | 'end';
  rule?: number;
}

/**
 * Bars for rules that can drop documents (span replacements only edit text). The start bar is the kept
 * total plus every sequential drop, so the chart closes exactly on the kept figure.
 */
export function waterfallBars(result: PreviewResult, measure: Measure): WaterfallBar[] {
  const droppers = result.rules.filter((r) => r.kind !== 'span_replacement');
  const kept = result.total.kept[measure];
  const start = kept + droppers.reduce((acc, r) => acc + r.sequential[measure], 0);
  const bars: WaterfallBar[] = [{ label: 'in streams', title: 'documents the streams read', base: 0, value: start, kind: 'start' }];
  let remaining = start;
  for (const r of droppers) {
    const v = r.sequential[measure];
    remaining -= v;
    bars.push({ label: `#${r.index} ${ruleLabel(r)}`, title: ruleTitle(r), base: remaining, value: v, kind: 'drop', rule: r.index });
  }
  bars.push({ label: 'kept', title: 'documents the recipe keeps', base: 0, value: kept, kind: 'end' });
  return bars;
}
