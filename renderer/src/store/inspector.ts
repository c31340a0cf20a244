// Inspector slice: the selected document's text, spans and search matches, and its fate under the previewed recipe.
import type { DocumentDetail, ExplainResult } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export type InspectorView = 'spans' | 'redaction';

export interface InspectorState {
  id: string | null;
  detail: DocumentDetail | null;
  explain: ExplainResult | null;
  loading: boolean;
  error: string | null;
  /**
   * The user's on/off choices per span group (`span:<set>` / `doc:<set>`, see lib/spans.ts); a group without a
   * choice is on when span-level and off when document-wide. Choices hold across documents.
   */
  spanChoices: Record<string, boolean>;
  view: InspectorView;
}

export interface InspectorSlice {
  inspector: InspectorState;
  selectDocument(id: string | null): Promise<void>;
  /** Re-asks the explanation under the latest previewed recipe. */
  refreshExplain(): Promise<void>;
  /** Flips a span group; `shown` is whether it is on now (its default when never chosen). */
  toggleSpanGroup(id: string, shown: boolean): void;
  setInspectorView(view: InspectorView): void;
}

export const createInspectorSlice: SliceCreator<InspectorSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'inspector');
  let docSeq = 0;
  let explainSeq = 0;
  // Explain under the text the preview last succeeded with: counts and fate then agree.
  const recipeText = (): string | null => get().preview.text;

  const explain = async (id: string): Promise<void> => {
    const text = recipeText();
    const mine = ++explainSeq;
    if (text === null) return;
    try {
      const ex = await api.invoke('preview.explain', { recipeText: text, id });
      if (mine === explainSeq && get().inspector.id === id) patch({ explain: ex });
    } catch (e) {
      if (mine === explainSeq && get().inspector.id === id) patch({ explain: null, error: errorText(e) });
    }
  };

  return {
    inspector: { id: null, detail: null, explain: null, loading: false, error: null, spanChoices: {}, view: 'spans' },

    async selectDocument(id) {
      const mine = ++docSeq;
      if (id === null) {
        patch({ id: null, detail: null, explain: null, loading: false, error: null });
        return;
      }
      patch({ id, loading: true, error: null, ...(get().inspector.id === id ? {} : { detail: null, explain: null }) });
      // With a search on, the host also returns the matched ranges, which the text view highlights.
      const search = get().documents.filter.search?.trim();
      const [detail] = await Promise.allSettled([api.invoke('documents.get', search ? { id, search } : { id }), explain(id)]);
      if (mine !== docSeq) return;
      if (detail.status === 'fulfilled') {
        patch({ detail: detail.value, loading: false });
        // Decon spans: the eval items they overlap are shown beside the text.
        void get().loadDeconItems(detail.value);
      }
      else patch({ detail: null, loading: false, error: errorText(detail.reason) });
    },

    async refreshExplain() {
      const id = get().inspector.id;
      if (id !== null) await explain(id);
    },

    toggleSpanGroup(groupId, shown) {
      patch({ spanChoices: { ...get().inspector.spanChoices, [groupId]: !shown } });
    },

    setInspectorView: (view) => patch({ view }),
  };
};
