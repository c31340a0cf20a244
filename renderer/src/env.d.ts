// Globals the renderer reads: the Electron preload bridge and the editor hook for end-to-end tests.
import type { AssayApi } from '../../shared/contract/index.js';

/** What `window.__assayEditor` offers a test: the recipe text, read and replaced as if typed. */
export interface EditorHook {
  getValue(): string;
  setValue(text: string): void;
  /** Once Monaco is mounted: the markers it shows (1-based) and the cursor. */
  markers?(): { line: number; column: number; endColumn: number; severity: 'error' | 'warning'; message: string; source: string }[];
  position?(): { line: number; column: number } | null;
}

declare global {
  interface Window {
    /** Set by the Electron preload; absent in browser mode. */
    assay?: AssayApi;
    __assayEditor?: EditorHook;
  }
}
