// Inspector slice: the selected document's text and spans, and its fate under the previewed recipe.
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
  /** Attribute sets whose spans are hidden (all shown by default). */
  hiddenSets: Record<string, boolean>;
  view: InspectorView;
}

export interface InspectorSlice {
  inspector: InspectorState;
  selectDocument(id: string | null): Promise<void>;
  /** Re-asks the explanation under the latest previewed recipe. */
  refreshExplain(): Promise<void>;
  toggleSpanSet(set: string): void;
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
    inspector: { id: null, detail: null, explain: null, loading: false, error: null, hiddenSets: {}, view: 'spans' },

    async selectDocument(id) {
      const mine = ++docSeq;
      if (id === null) {
        patch({ id: null, detail: null, explain: null, loading: false, error: null });
        return;
      }
      patch({ id, loading: true, error: null, ...(get().inspector.id === id ? {} : { detail: null, explain: null }) });
      const [detail] = await Promise.allSettled([api.invoke('documents.get', { id }), explain(id)]);
      if (mine !== docSeq) return;
      if (detail.status === 'fulfilled') patch({ detail: detail.value, loading: false });
      else patch({ detail: null, loading: false, error: errorText(detail.reason) });
    },

    async refreshExplain() {
      const id = get().inspector.id;
      if (id !== null) await explain(id);
    },

    toggleSpanSet(s) {
      const hiddenSets = { ...get().inspector.hiddenSets };
      if (hiddenSets[s]) delete hiddenSets[s];
      else hiddenSets[s] = true;
      patch({ hiddenSets });
    },

    setInspectorView: (view) => patch({ view }),
  };
};
