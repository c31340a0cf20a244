// Why a rule drops a document, in one sentence: the failing sub-rule of a verdict flag, the compared value, or the expression.
import type { EngineState, StreamAnalysis } from '../preview/analyze.js';
import type { RuleSpec } from '../recipe/recipe.js';
import { T } from '../store/tags.js';
import { columnValue, subRulesOf, type Because } from './subrules.js';

const show = (v: unknown): string => (v === undefined ? 'absent' : JSON.stringify(v));

/**
 * The sentence for a rule that drops a document. `values` reads a key's document-level value (explain reads the
 * merged document; table rows read columns); `compared` is the value the rule's threshold is compared with.
 */
export function dropSentence(spec: RuleSpec, a: StreamAnalysis, because: readonly Because[], compared: { known: boolean; value: unknown }): string {
  const f = spec.filter;
  if (f === undefined) return `\`${spec.expression}\``;
  if (f.kind === 'include') return a.includes.length > 1 ? 'no include rule matches it' : `it does not match \`${spec.expression}\``;
  const sw = f.plan.sweep;
  const flag = sw && compared.known ? `\`${sw.label}\` = ${show(compared.value)}` : null;
  if (because.length > 0) {
    const first = because[0] as Because;
    const more = because.length > 1 ? ` (and ${because.length - 1} more failing sub-rule${because.length > 2 ? 's' : ''})` : '';
    return `${first.text}${more}${flag ? `, so ${flag}` : ''}`;
  }
  if (sw && flag) return `${flag} ${sw.op} ${sw.threshold}`;
  return `it matches \`${spec.expression}\``;
}

/** The failing sub-rules behind the verdict flags a rule reads, from the index's columns. */
export function becauseFromColumns(spec: RuleSpec, a: StreamAnalysis, st: EngineState, g: number): Because[] {
  if (spec.filter === undefined) return [];
  return subRulesOf(st.root, st.data).failing(spec.filter.plan.keys, (k) => columnValue(a.ctx, k, g));
}

/** `DocumentRow.reason` for a document dropped by rule `index` (the first rule that drops it). */
export function rowReason(a: StreamAnalysis, index: number, st: EngineState, g: number): string | undefined {
  const spec = a.rules.find((r) => r.index === index);
  if (spec === undefined) return undefined;
  if (spec.kind === 'sample') {
    const fraction = a.sampling.fraction(st.data.sourceNames[st.data.source[g] as number] ?? '');
    return `not drawn by assay.sample (fraction ${fraction}, seed ${a.sampling.seed})`;
  }
  if (spec.kind === 'min_text_length') {
    const touched = a.spans !== null && a.spans.touched.has(g);
    const value = touched ? a.spans?.trimmed()[g] : st.data.trimmed[g];
    return `text of ${value} UTF-8 bytes after span replacement and trimming, below ${a.minLen}`;
  }
  let compared: { known: boolean; value: unknown } = { known: false, value: undefined };
  const sw = spec.filter?.plan.sweep;
  const outcome = [...a.includes, ...a.excludes].find((x) => x.spec === spec)?.outcome;
  if (sw && outcome && outcome.exact === 0) {
    const v = sw.operand(a.ctx);
    const t = v.tag[g];
    compared = { known: true, value: t === T.NUM ? v.num[g] : t === T.ABSENT ? undefined : null };
    if (compared.value === null) compared = { known: false, value: undefined };
  }
  return dropSentence(spec, a, becauseFromColumns(spec, a, st, g), compared);
}
