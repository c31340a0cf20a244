// The sub-rules behind a 0/1 verdict flag rule, as the Distributions tab offers them: tunable when a rule compares the value.
import type { PreviewRule, SubRule } from '../../../shared/contract/index.js';
import { fmtValue } from './format.js';

export interface SubRuleOption {
  /** The flag rule (recipe index) the sub-rule belongs to. */
  rule: number;
  sub: SubRule;
  /** A rule of the recipe whose threshold compares this value attribute (so dragging rewrites it), when one exists. */
  tunable?: number;
}

/** Every flag rule's sub-rules, in recipe order; each tunable by the first rule whose sweep compares its key. */
export function subRuleOptions(rules: readonly PreviewRule[]): SubRuleOption[] {
  const out: SubRuleOption[] = [];
  for (const r of rules) {
    for (const sub of r.subRules ?? []) {
      const t = rules.find((x) => x.sweep?.key === sub.key && x.sweep.location !== undefined);
      out.push(t ? { rule: r.index, sub, tunable: t.index } : { rule: r.index, sub });
    }
  }
  return out;
}

/** The select value naming a sub-rule option. */
export const subRuleValue = (rule: number, key: string): string => `sub:${rule}:${key}`;

export function parseSubRuleValue(v: string): { rule: number; key: string } | null {
  const m = /^sub:(\d+):(.+)$/.exec(v);
  return m ? { rule: Number(m[1]), key: m[2] as string } : null;
}

/** What a sub-rule's threshold reads as: "top 4-gram fraction > 0.2" (the tagger's own test). */
export function subRuleTest(sub: SubRule): string {
  return sub.op !== undefined && sub.threshold !== undefined ? `${sub.label} ${sub.op} ${fmtValue(sub.threshold)}` : sub.label;
}

/**
 * An exclude rule the user can paste into the recipe to make the tagger's threshold tunable: it drops what the
 * sub-rule fails (op and threshold as the tagger applied them), in the mixer's span form.
 */
export function tunableRuleSnippet(sub: SubRule): string | null {
  if (sub.op === undefined || sub.threshold === undefined) return null;
  const k = sub.key;
  return `- "$.attributes[?(@.${k} && @.${k}[0] && @.${k}[0][2] ${sub.op} ${sub.threshold})]"`;
}

/** What the Distributions tab opens on: a rule's own threshold, or a flag rule's sub-rule value. */
export type SweepChoice = { rule: number } | { rule: number; subKey: string };

/** The sub-rule a flag rule is shown by: its first one with a threshold (a 0/1 sub-flag says little), else its first. */
export function leadSubRule(r: Pick<PreviewRule, 'subRules'>): SubRule | undefined {
  return r.subRules?.find((s) => s.threshold !== undefined) ?? r.subRules?.[0];
}

/**
 * The first rule, in recipe order, with something to drag or read: a plain threshold, or a flag whose sub-rules
 * carry thresholds; failing both, the first flag's first sub-rule.
 */
export function defaultSweepChoice(rules: readonly PreviewRule[]): SweepChoice | null {
  for (const r of rules) {
    if ((r.subRules?.length ?? 0) > 0) {
      const sub = r.subRules?.find((s) => s.threshold !== undefined);
      if (sub) return { rule: r.index, subKey: sub.key };
    } else if (r.sweep) return { rule: r.index };
  }
  const flag = rules.find((r) => (r.subRules?.length ?? 0) > 0);
  const sub = flag && leadSubRule(flag);
  return flag && sub ? { rule: flag.index, subKey: sub.key } : null;
}
