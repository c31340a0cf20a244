// UI slice: which tab of the lower centre pane is showing, and docs-or-tokens for the preview figures.
import type { Measure } from '../lib/waterfall.js';
import { patcher, type SliceCreator } from './types.js';

export type BottomTab = 'distributions' | 'runs';

export interface UiState {
  bottomTab: BottomTab;
  /** The waterfall's measure. */
  measure: Measure;
  showWorkspace: boolean;
  /** A request for the editor to show a line; the nonce makes asking twice for the same line work. */
  reveal: { line: number; nonce: number } | null;
}

export interface UiSlice {
  ui: UiState;
  setBottomTab(tab: BottomTab): void;
  setMeasure(m: Measure): void;
  toggleWorkspace(): void;
  revealLine(line: number): void;
}

export const createUiSlice: SliceCreator<UiSlice> = () => (set, get) => {
  const patch = patcher(set, get, 'ui');
  return {
    ui: { bottomTab: 'distributions', measure: 'docs', showWorkspace: true, reveal: null },
    setBottomTab: (bottomTab) => patch({ bottomTab }),
    setMeasure: (measure) => patch({ measure }),
    toggleWorkspace: () => patch({ showWorkspace: !get().ui.showWorkspace }),
    revealLine: (line) => patch({ reveal: { line, nonce: (get().ui.reveal?.nonce ?? 0) + 1 } }),
  };
};
