// Distributions slice: the histogram on show, the rule (or flag sub-rule) whose threshold is drawn on it, and dragging it.
import type { Histogram, PreviewRule, SubRule } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { subRuleOptions } from '../lib/subRules.js';
import { numberAt, rewriteNumberAt } from '../lib/yamlNumber.js';
import { patcher, type SliceCreator, type WorkbenchState } from './types.js';

export interface DistributionsState {
  /** Attribute key on show. */
  key: string | null;
  /** Index of the rule whose sweep (threshold, drop curve) is drawn. */
  rule: number | null;
  /**
   * A sub-rule of a 0/1 flag rule on show (its value attribute is `key`). `rule` is then the recipe rule that
   * compares that value (draggable) or null, and the tagger's own threshold is drawn as a fixed line.
   */
  subRule: { rule: number; key: string } | null;
  bins: number;
  histogram: Histogram | null;
  loading: boolean;
  error: string | null;
}

export interface DistributionsSlice {
  distributions: DistributionsState;
  selectAttribute(key: string | null): void;
  /** Shows a rule's sweep, and the histogram of the attribute it compares. */
  selectSweepRule(index: number | null): void;
  /** Shows a flag rule's sub-rule value attribute, with the recipe rule that compares it when there is one. */
  selectSubRule(rule: number, key: string): void;
  /** The rule selection may point at a rule the new recipe no longer has. */
  resetSweepRule(): void;
  /** Writes `literal` in place of the selected rule's threshold in the recipe text. */
  setThreshold(literal: string): boolean;
  /** The index changed: cached histograms are stale. */
  invalidateHistograms(): void;
}

export const sweepRule = (s: WorkbenchState): PreviewRule | undefined =>
  s.preview.result?.rules.find((r) => r.index === s.distributions.rule && r.sweep !== undefined);

/** The sub-rule on show, as the preview describes it. */
export function shownSubRule(s: WorkbenchState): SubRule | undefined {
  const sel = s.distributions.subRule;
  if (!sel) return undefined;
  return s.preview.result?.rules.find((r) => r.index === sel.rule)?.subRules?.find((x) => x.key === sel.key);
}

/** The threshold as the editor text has it now (so typing moves the line before the preview answers). */
export function currentThreshold(s: WorkbenchState): number | null {
  const sweep = sweepRule(s)?.sweep;
  if (!sweep) return null;
  const live = sweep.location ? numberAt(s.recipe.text, sweep.location) : null;
  return live ? live.value : sweep.threshold;
}

export const createDistributionsSlice: SliceCreator<DistributionsSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'distributions');
  const cache = new Map<string, Histogram>();
  let seq = 0;

  const load = async (key: string, bins: number): Promise<void> => {
    const ck = `${bins}|${key}`;
    const hit = cache.get(ck);
    if (hit) {
      patch({ histogram: hit, loading: false, error: null });
      return;
    }
    const mine = ++seq;
    patch({ loading: true, error: null });
    try {
      const h = await api.invoke('attributes.histogram', { key, bins });
      cache.set(ck, h);
      if (mine === seq) patch({ histogram: h, loading: false });
    } catch (e) {
      if (mine === seq) patch({ histogram: null, loading: false, error: errorText(e) });
    }
  };

  return {
    distributions: { key: null, rule: null, subRule: null, bins: 40, histogram: null, loading: false, error: null },

    selectAttribute(key) {
      const d = get().distributions;
      // A different attribute than the selected rule compares: that rule's line no longer belongs on the chart.
      const rule = sweepRule(get())?.sweep?.key === key ? d.rule : null;
      const subRule = d.subRule?.key === key ? d.subRule : null;
      patch({ key, rule, subRule, histogram: key === d.key ? d.histogram : null });
      if (key !== null) void load(key, d.bins);
    },

    selectSubRule(flagRule, key) {
      const opt = subRuleOptions(get().preview.result?.rules ?? []).find((o) => o.rule === flagRule && o.sub.key === key);
      const d = get().distributions;
      patch({ subRule: { rule: flagRule, key }, rule: opt?.tunable ?? null, key, histogram: key === d.key ? d.histogram : null });
      void load(key, d.bins);
    },

    selectSweepRule(index) {
      patch({ rule: index, subRule: null });
      const key = sweepRule(get())?.sweep?.key;
      if (key !== undefined && key !== get().distributions.key) {
        patch({ key, histogram: null });
        void load(key, get().distributions.bins);
      }
    },

    resetSweepRule() {
      if (get().distributions.rule !== null || get().distributions.subRule !== null) patch({ rule: null, subRule: null });
    },

    setThreshold(literal) {
      const loc = sweepRule(get())?.sweep?.location;
      const text = get().recipe.text;
      const next = loc ? rewriteNumberAt(text, loc, literal) : null;
      if (next === null) {
        patch({ error: 'the threshold is no longer where the last preview found it; wait for the preview to catch up' });
        return false;
      }
      if (get().distributions.error) patch({ error: null });
      get().setRecipeText(next);
      return true;
    },

    invalidateHistograms() {
      cache.clear();
      const { key, bins } = get().distributions;
      if (key !== null) void load(key, bins);
    },
  };
};
