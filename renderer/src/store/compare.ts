// Compare slice: what the edited recipe is compared with, and the diff of the previewed text against it (changed documents, grouped).
import type { DiffGroup, ErrorPayload, RecipeCompareResult } from '../../../shared/contract/index.js';
import { toErrorPayload } from '../api/errors.js';
import { againstOf, groupKey, sameTarget, type CompareTarget } from '../lib/compare.js';
import { patcher, type SliceCreator } from './types.js';

/** Sample ids asked per group (the table lists every document of a group; these are for a quick look). */
export const COMPARE_SAMPLES = 5;

export interface CompareState {
  target: CompareTarget | null;
  result: RecipeCompareResult | null;
  /** The previewed text `result` compares (documents are asked under the same text). */
  text: string | null;
  running: boolean;
  /** Why the latest comparison failed; `result` then still holds the last one that did not. */
  error: ErrorPayload | null;
}

export interface CompareSlice {
  compare: CompareState;
  /** Compare with `target` (null: stop comparing, and drop the table's change filters). */
  setCompareTarget(target: CompareTarget | null): void;
  /** Diff the previewed text against the target now (after every preview, a save, a new target). */
  runCompare(): Promise<void>;
  /** Lists one group's documents in the table (of one source, when given). */
  showChangeGroup(group: DiffGroup, source?: string): void;
}

export const createCompareSlice: SliceCreator<CompareSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'compare');
  let seq = 0;

  return {
    compare: { target: null, result: null, text: null, running: false, error: null },

    setCompareTarget(target) {
      if (sameTarget(target, get().compare.target)) return;
      seq++;
      patch({ target, result: null, text: null, running: false, error: null });
      const f = get().documents.filter;
      // A group belongs to one comparison; the kind of change still means something against another baseline.
      if (target === null && (f.change !== undefined || f.group !== undefined)) get().setDocFilter({ change: undefined, group: undefined });
      else if (f.group !== undefined) get().setDocFilter({ group: undefined });
      else get().invalidateDocuments();
      void get().runCompare();
    },

    async runCompare() {
      const { target } = get().compare;
      const text = get().preview.text;
      if (target === null || text === null) return;
      const mine = ++seq;
      patch({ running: true });
      const against = againstOf(target, { path: get().recipe.path, text: get().recipe.savedText });
      try {
        const result = await api.invoke('preview.diff', { recipeText: text, against, samples: COMPARE_SAMPLES });
        if (mine !== seq) return;
        const before = get().compare.result?.baseline.text;
        patch({ result, text, running: false, error: null });
        // Pages under comparison are asked against the baseline's text: a new baseline means new rows.
        if (before !== result.baseline.text) get().invalidateDocuments();
      } catch (e) {
        if (mine !== seq) return;
        const error = toErrorPayload(e);
        // A newer diff (ours, or another window's) took the preview thread: the next preview asks again.
        patch(error.code === 'CANCELLED' ? { running: false } : { running: false, error });
      }
    },

    showChangeGroup(group, source) {
      get().setDocFilter({ group: groupKey(group), source, fate: undefined, droppedBy: undefined, redactedBy: undefined, bucket: undefined, ranges: [] });
    },
  };
};
