// Lint a recipe against the index: missing keys, rules that drop nothing or everything, shadowed rules, empty selectors.
import type { LintIssue } from '../../../../shared/contract/preview.js';
import { AssayError } from '../../errors.js';
import { RecipeError } from '../../mix/config.js';
import type { StreamAnalysis } from '../preview/analyze.js';
import type { Bitset } from '../preview/bitset.js';
import { missingKeys } from '../preview/result.js';
import type { ParsedRecipe, RuleSpec } from '../recipe/recipe.js';
import type { IndexData } from '../store/data.js';
import { DOC_SET } from '../store/tags.js';

type Analyse = (text: string, name: string) => { recipe: ParsedRecipe; streams: StreamAnalysis[] };

export function lint(text: string, name: string, analyse: Analyse, data: IndexData): LintIssue[] {
  let recipe: ParsedRecipe;
  let streams: StreamAnalysis[];
  try {
    ({ recipe, streams } = analyse(text, name));
  } catch (e) {
    if (e instanceof RecipeError) return e.issues.map((i) => ({ severity: 'error', code: 'syntax', ...(i.line !== undefined ? { line: i.line } : {}), message: `${i.field}: ${i.message}` }));
    if (e instanceof AssayError) return [{ severity: 'error', code: 'syntax', ...(e.line !== undefined && e.file === undefined ? { line: e.line } : {}), message: e.message }];
    throw e;
  }
  const issues: LintIssue[] = [];
  for (const a of streams) for (const spec of a.rules) issues.push(...lintRule(spec, a, data, recipe));
  return issues;
}

function lintRule(spec: RuleSpec, a: StreamAnalysis, data: IndexData, _recipe: ParsedRecipe): LintIssue[] {
  const out: LintIssue[] = [];
  const at = { rule: spec.index, ...(spec.line !== undefined ? { line: spec.line } : {}) };
  const warn = (code: LintIssue['code'], message: string): void => void out.push({ severity: 'warning', code, ...at, message });
  if (spec.filter) {
    for (const key of missingKeys(spec.filter.plan.keys, a, data)) {
      const elsewhere = data.keys.filter((k) => k.set !== DOC_SET && k.path.length === 1 && k.path[0] === key && k.present > 0).map((k) => k.set);
      warn('missing-key', `rule ${spec.index} reads \`${key}\`, which no document has in the attribute sets stream '${a.scope.name}' merges (${a.scope.merge.sets.join(', ') || 'none'})${elsewhere.length ? `; it is in ${elsewhere.map((s) => `'${s}'`).join(', ')}, which the stream does not list` : '; the rule can never match it'}`);
    }
  }
  if (spec.replacer) {
    const k = spec.replacer.position;
    let found = false;
    for (const reps of a.spans?.reps.values() ?? []) if (reps.some((r) => r.rule === k)) found = true;
    if (!found) warn('no-spans', `rule ${spec.index}: \`${spec.expression}\` selects no span with a score in [${spec.replacer.min}, ${spec.replacer.max}) in any document of stream '${a.scope.name}'`);
    return out;
  }
  const alone = a.alone.get(spec.index);
  const seq = a.sequential.get(spec.index);
  if (alone === undefined || seq === undefined) return out;
  const n = alone.count();
  const what = spec.kind === 'include' ? `include rule ${spec.index} matches every document` : `rule ${spec.index} drops nothing`;
  if (n === 0 && a.scope.count > 0) warn('drops-nothing', `${what} of stream '${a.scope.name}' (${a.scope.count} documents)`);
  else if (n === a.scope.count && n > 0) warn('drops-everything', `rule ${spec.index} alone drops every document of stream '${a.scope.name}' (${n})`);
  else if (seq.count() === 0 && n > 0 && spec.kind !== 'include') {
    const by = coveringRule(spec, a, alone);
    warn('shadowed', `rule ${spec.index} would drop ${n} document(s), but earlier rules already drop all of them${by !== undefined ? ` (rule ${by} alone covers them)` : ''}`);
  }
  return out;
}

/** An earlier rule whose drops include every drop of `spec`, if one does. */
function coveringRule(spec: RuleSpec, a: StreamAnalysis, alone: Bitset): number | undefined {
  for (const r of a.rules) {
    if (r.index >= spec.index) break;
    const d = a.drops.get(r.index);
    if (d !== undefined && alone.andNot(d).count() === 0) return r.index;
  }
  return undefined;
}
