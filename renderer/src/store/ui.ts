// UI slice: the lower centre tab, docs-or-tokens for the preview figures, and the colour theme (system / light / dark).
import { browserStorage, loadThemePref, resolveTheme, saveThemePref, systemPrefersDark, type Theme, type ThemePref } from '../lib/theme.js';
import type { Measure } from '../lib/waterfall.js';
import { patcher, type SliceCreator } from './types.js';

export type BottomTab = 'distributions' | 'ledger' | 'runs' | 'decon';

export interface UiState {
  bottomTab: BottomTab;
  /** The waterfall's measure. */
  measure: Measure;
  showWorkspace: boolean;
  /** A request for the editor to show a line; the nonce makes asking twice for the same line work. */
  reveal: { line: number; nonce: number } | null;
  /** The user's theme choice (persisted). */
  themePref: ThemePref;
  /** Whether the system colour scheme is dark (followed live). */
  systemDark: boolean;
  /** The theme in effect: what the page, the charts and the editor are drawn in. */
  theme: Theme;
}

export interface UiSlice {
  ui: UiState;
  setBottomTab(tab: BottomTab): void;
  setMeasure(m: Measure): void;
  toggleWorkspace(): void;
  revealLine(line: number): void;
  setThemePref(pref: ThemePref): void;
  /** The system colour scheme changed (prefers-color-scheme). */
  setSystemDark(dark: boolean): void;
}

export const createUiSlice: SliceCreator<UiSlice> = () => (set, get) => {
  const patch = patcher(set, get, 'ui');
  const storage = browserStorage();
  const themePref = loadThemePref(storage);
  const systemDark = systemPrefersDark();
  return {
    ui: { bottomTab: 'distributions', measure: 'docs', showWorkspace: true, reveal: null, themePref, systemDark, theme: resolveTheme(themePref, systemDark) },
    setBottomTab(bottomTab) {
      patch({ bottomTab });
      // The ledger is computed only while its tab shows: catch up with the preview on opening it.
      if (bottomTab === 'ledger' && get().ledger.text !== get().preview.text) void get().runLedger();
      // The contamination report is asked once on opening its tab (it reads every decon attribute file); "refresh" asks again.
      if (bottomTab === 'decon' && get().decon.report === null && !get().decon.loading) void get().loadDeconReport();
    },
    setMeasure: (measure) => patch({ measure }),
    toggleWorkspace: () => patch({ showWorkspace: !get().ui.showWorkspace }),
    revealLine: (line) => patch({ reveal: { line, nonce: (get().ui.reveal?.nonce ?? 0) + 1 } }),
    setThemePref(pref) {
      saveThemePref(storage, pref);
      patch({ themePref: pref, theme: resolveTheme(pref, get().ui.systemDark) });
    },
    setSystemDark(dark) {
      patch({ systemDark: dark, theme: resolveTheme(get().ui.themePref, dark) });
    },
  };
};
