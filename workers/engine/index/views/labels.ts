// A preview rule's names: its label (YAML comment, else key + comparator + threshold) and the sub-rules behind a verdict flag.
import type { PreviewRule, ThresholdSweep } from '../../../../shared/contract/preview.js';
import { ruleLabel } from '../../../../shared/recipe/rule-label.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import type { IndexData } from '../store/data.js';
import { subRulesOf } from './subrules.js';

export function ruleNames(spec: RuleSpec, recipe: ParsedRecipe, data: IndexData, root: string, sweep: ThresholdSweep | undefined): Pick<PreviewRule, 'label' | 'subRules'> {
  // The expression's own sweep plan names the key even when no sweep could be counted (exact path, errors).
  const plan = spec.filter?.plan.sweep;
  const compared = sweep ?? (plan ? { key: plan.label, op: plan.op, threshold: plan.threshold } : undefined);
  const label = ruleLabel({ kind: spec.kind, expression: spec.expression, comment: recipe.locator.comment(spec.path), sweep: compared });
  const subRules = spec.filter ? subRulesOf(root, data).forKeys(spec.filter.plan.keys) : undefined;
  return { label, ...(subRules ? { subRules } : {}) };
}
