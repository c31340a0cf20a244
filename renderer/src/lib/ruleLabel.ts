// Short names for recipe rules: the rule's comment line, else key + comparator + threshold; the full expression on hover.
import type { PreviewRule } from '../../../shared/contract/index.js';
import { fmtValue } from './format.js';

type Named = Pick<PreviewRule, 'index' | 'kind' | 'expression'> & Partial<Pick<PreviewRule, 'label' | 'sweep'>>;

/** Longest label shown before eliding (the hover always has the whole expression). */
const MAX = 72;

const elide = (s: string): string => (s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s);

/**
 * The host's label when it sent one; otherwise what the sweep compares, or the span selector without its
 * `$.attributes.` prefix; the expression itself only as the last resort.
 */
export function ruleLabel(r: Named): string {
  if (r.label && r.label.trim() !== '') return elide(r.label.trim());
  if (r.sweep) return elide(`${r.sweep.key} ${r.sweep.op} ${fmtValue(r.sweep.threshold)}`);
  if (r.kind === 'span_replacement') return elide(r.expression.replace(/^\$\.attributes\./, ''));
  return elide(r.expression);
}

/** The hover: rule number, kind and the expression as written. */
export function ruleTitle(r: Named): string {
  return `rule ${r.index} (${r.kind.replace('_', ' ')}): ${r.expression}`;
}

/** A rule named in running text: "rule 3 · word count < 50". */
export function ruleName(r: Named): string {
  return `rule ${r.index} · ${ruleLabel(r)}`;
}

/** The rule with this index among the previewed rules, when there is one. */
export function findRule(rules: readonly PreviewRule[] | undefined, index: number | undefined): PreviewRule | undefined {
  return index === undefined ? undefined : rules?.find((r) => r.index === index);
}
