// Preview slice: the live preview of the editor's recipe (rule counts, totals, sweeps), its error and lint issues.
import type { ErrorPayload, JobInfo, LintIssue, PreviewResult } from '../../../shared/contract/index.js';
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
  /** A `preview` job is counting the exact figures of a sampled preview's text (shown if the text is unchanged when it ends). */
  exactRunning: boolean;
}

export interface PreviewSlice {
  preview: PreviewState;
  /** The text changed: preview it soon (see latestRunner for the timing). */
  schedulePreview(): void;
  /** Preview the current text now. */
  runPreview(): Promise<void>;
  /**
   * A sampled preview's exact figures for the current text: kept ones at once, else a `preview` job (listed under Runs)
   * counts every indexed document; the next edit's preview replaces them.
   */
  runExactPreview(): Promise<void>;
  /** A job ended: when it is the exact figures' job, show them if the text is still the one it counted. */
  exactJobEnded(info: JobInfo): Promise<void>;
  toggleRuleExpanded(index: number): void;
}

const MAX_SUPERSEDED = 5;

export const createPreviewSlice: SliceCreator<PreviewSlice> = ({ api, previewGapMs }) => (set, get) => {
  const patch = patcher(set, get, 'preview');
  let seq = 0;
  /** Consecutive CANCELLED answers for our own latest preview: another window's newer preview superseded it. */
  let superseded = 0;
  /** The running exact-figures job and the text it counts. */
  let exactJob: { id: string; text: string } | null = null;
  /** Exact figures kept for `text` (by an earlier job, on the index as it is now), shown if the text is still current. */
  const showExact = async (text: string): Promise<boolean> => {
    const result = await api.invoke('preview.exact', { recipeText: text }).catch(() => null);
    if (result === null) return false;
    if (get().recipe.text === text) patch({ result, text, error: null });
    return true;
  };

  const run = async (): Promise<void> => {
    const text = get().recipe.text;
    const mine = ++seq;
    // No recipe open and nothing typed: nothing to preview (the engine would call the empty text a broken recipe).
    if (get().recipe.path === null && text.trim() === '') return patch({ result: null, text: null, error: null, lint: [], running: false, roundTripMs: null });
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
      if (exactJob !== null) return;
      patch({ exactRunning: true });
      try {
        if (await showExact(text)) return patch({ exactRunning: false });
        const info = await api.invoke('jobs.start', { kind: 'preview', configText: text });
        exactJob = { id: info.jobId, text };
        // Its state events may have come before this answer: the Runs list then holds it already, perhaps ended.
        const known = get().runs.jobs.find((j) => j.jobId === info.jobId);
        if (known === undefined) get().onJobState(info);
        else if (known.state !== 'running') await get().exactJobEnded(known);
      } catch (e) {
        exactJob = null;
        patch({ exactRunning: false, error: toErrorPayload(e) });
      }
    },
    async exactJobEnded(info) {
      if (exactJob === null || info.jobId !== exactJob.id || info.state === 'running') return;
      const { text } = exactJob;
      exactJob = null;
      patch({ exactRunning: false });
      // A failed or cancelled job says why in the Runs list; the sampled figures stay.
      if (info.state === 'done') await showExact(text);
    },
    toggleRuleExpanded(index) {
      const expanded = { ...get().preview.expanded };
      if (expanded[index]) delete expanded[index];
      else expanded[index] = true;
      patch({ expanded });
    },
  };
};
