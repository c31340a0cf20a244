// Preview slice: the live preview of the editor's recipe (rule counts, totals, sweeps), its error and lint issues.
import type { ErrorPayload, LintIssue, PreviewResult } from '../../../shared/contract/index.js';
import { toErrorPayload } from '../api/errors.js';
import { latestRunner } from '../lib/latestRunner.js';
import { defaultSweepChoice } from '../lib/subRules.js';
import { patcher, type SliceCreator } from './types.js';

export interface PreviewState {
  result: PreviewResult | null;
  /** The recipe text `result` was computed for (documents and explanations are asked under this text). */
  text: string | null;
  /** Why the latest text could not be previewed; `result` then still shows the last good preview. */
  error: ErrorPayload | null;
  lint: LintIssue[];
  running: boolean;
  /** Request → answer of the last run (ms), as the app saw it. */
  roundTripMs: number | null;
  /** Rules whose per-source rows are open. */
  expanded: Record<number, boolean>;
  /** Exact figures asked for a sampled preview's text are being computed (an edit cancels them). */
  exactRunning: boolean;
}

export interface PreviewSlice {
  preview: PreviewState;
  /** The text changed: preview it soon (see latestRunner for the timing). */
  schedulePreview(): void;
  /** Preview the current text now. */
  runPreview(): Promise<void>;
  /** A sampled preview's exact figures: every indexed document, for the current text (the next edit's preview replaces them). */
  runExactPreview(): Promise<void>;
  toggleRuleExpanded(index: number): void;
}

const MAX_SUPERSEDED = 5;

export const createPreviewSlice: SliceCreator<PreviewSlice> = ({ api, previewGapMs }) => (set, get) => {
  const patch = patcher(set, get, 'preview');
  let seq = 0;
  /** Consecutive CANCELLED answers for our own latest preview: another window's newer preview superseded it. */
  let superseded = 0;

  const run = async (): Promise<void> => {
    const text = get().recipe.text;
    const mine = ++seq;
    patch({ running: true });
    const t0 = performance.now();
    const [res, lint] = await Promise.allSettled([
      api.invoke('preview.run', { recipeText: text }),
      api.invoke('preview.lint', { recipeText: text }),
    ]);
    if (mine !== seq) return; // a newer run owns the state
    const roundTripMs = Math.round(performance.now() - t0);
    const lintIssues = lint.status === 'fulfilled' ? lint.value : [];
    if (res.status === 'rejected' && toErrorPayload(res.reason).code === 'CANCELLED' && superseded < MAX_SUPERSEDED) {
      // The host runs one preview at a time for every window; ours lost to another's. Ask again, a little later
      // each time so two windows cannot keep cancelling each other, and keep showing the last result meanwhile.
      superseded++;
      patch({ running: false });
      setTimeout(() => runner.request(), 50 * superseded * superseded);
      return;
    }
    superseded = 0;
    if (res.status === 'fulfilled') {
      patch({ result: res.value, text, error: null, lint: lintIssues, running: false, roundTripMs });
      // Nothing chosen on the Distributions tab yet: start on the first rule whose threshold can be dragged,
      // and for a 0/1 verdict flag on its first sub-rule's value rather than on the flag.
      const d = get().distributions;
      const first = defaultSweepChoice(res.value.rules);
      if (d.rule === null && d.key === null && first) {
        if ('subKey' in first) get().selectSubRule(first.rule, first.subKey);
        else get().selectSweepRule(first.rule);
      } else if (d.subRule) get().selectSubRule(d.subRule.rule, d.subRule.key); // a rule on its value may have been added
      get().invalidateDocuments();
      void get().refreshExplain();
      void get().runCompare();
      if (get().ui.bottomTab === 'ledger') void get().runLedger();
    } else {
      patch({ error: toErrorPayload(res.reason), lint: lintIssues, running: false, roundTripMs });
    }
  };
  const runner = latestRunner(run, previewGapMs);

  return {
    preview: { result: null, text: null, error: null, lint: [], running: false, roundTripMs: null, expanded: {}, exactRunning: false },
    schedulePreview: () => runner.request(),
    runPreview() {
      runner.cancel();
      return run();
    },
    async runExactPreview() {
      const text = get().recipe.text;
      const mine = seq;
      patch({ exactRunning: true });
      try {
        const result = await api.invoke('preview.run', { recipeText: text, exact: true });
        // An edit since the click owns the state (and its live preview cancelled this one).
        if (mine === seq && get().recipe.text === text) patch({ result, text, error: null });
      } catch (e) {
        if (mine === seq && toErrorPayload(e).code !== 'CANCELLED') patch({ error: toErrorPayload(e) });
      } finally {
        patch({ exactRunning: false });
      }
    },
    toggleRuleExpanded(index) {
      const expanded = { ...get().preview.expanded };
      if (expanded[index]) delete expanded[index];
      else expanded[index] = true;
      patch({ expanded });
    },
  };
};
