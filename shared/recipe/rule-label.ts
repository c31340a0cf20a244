// A recipe rule's short name (its YAML comment, else key + comparator + threshold, else the expression), shared by the engine and the app.

/** Longest label before eliding (the full expression is always available on hover). */
export const RULE_LABEL_MAX = 72;

export interface LabelInput {
  kind: 'include' | 'exclude' | 'min_text_length' | 'span_replacement' | 'sample';
  expression: string;
  /** The rule's own YAML comment (the line above it or trailing on its line), when it has one. */
  comment?: string | undefined;
  /** The numeric comparison the rule makes, as the Distributions dropdown shows it. */
  sweep?: { key: string; op: string; threshold: number } | undefined;
}

const elide = (s: string, max: number): string => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

export function ruleLabel(r: LabelInput, max = RULE_LABEL_MAX): string {
  const comment = r.comment?.trim();
  if (comment) return elide(comment, max);
  if (r.sweep) return elide(`${r.sweep.key} ${r.sweep.op} ${r.sweep.threshold}`, max);
  if (r.kind === 'span_replacement') return elide(r.expression.replace(/^\$\.attributes\./, ''), max);
  if (r.kind === 'min_text_length') return elide(`text shorter than ${r.expression} bytes`, max);
  if (r.kind === 'sample') return elide(`not sampled (${r.expression})`, max);
  return elide(r.expression, max);
}
