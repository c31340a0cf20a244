// The workbench state: one Zustand store assembled from slices, each owning one key and its actions.
import type { StateCreator } from 'zustand/vanilla';
import type { AssayApi } from '../../../shared/contract/index.js';
import type { CompareSlice } from './compare.js';
import type { DeconSlice } from './decon.js';
import type { ConnectionSlice } from './connection.js';
import type { DistributionsSlice } from './distributions.js';
import type { DocumentsSlice } from './documents.js';
import type { ExecutorSlice } from './executor.js';
import type { InspectorSlice } from './inspector.js';
import type { LedgerSlice } from './ledger.js';
import type { PreviewSlice } from './preview.js';
import type { RecipeSlice } from './recipe.js';
import type { RunPageSlice } from './runPage.js';
import type { RunsSlice } from './runs.js';
import type { SourcesSlice } from './sources.js';
import type { UiSlice } from './ui.js';
import type { WorkspaceSlice } from './workspace.js';

export type WorkbenchState = ConnectionSlice &
  WorkspaceSlice &
  RecipeSlice &
  PreviewSlice &
  CompareSlice &
  LedgerSlice &
  DistributionsSlice &
  DocumentsSlice &
  InspectorSlice &
  RunsSlice &
  ExecutorSlice &
  RunPageSlice &
  DeconSlice &
  SourcesSlice &
  UiSlice;

export interface StoreDeps {
  api: AssayApi;
  /** Minimum gap between preview runs while typing (ms). */
  previewGapMs: number;
}

/** A slice factory: gets the dependencies, returns the slice's part of the state. */
export type SliceCreator<T> = (deps: StoreDeps) => StateCreator<WorkbenchState, [], [], T>;

type Get = () => WorkbenchState;
type Set = (partial: Partial<WorkbenchState>) => void;

/** Shallow-merges `p` into the slice state under `key`. */
export function patcher<K extends keyof WorkbenchState>(set: Set, get: Get, key: K) {
  return (p: Partial<WorkbenchState[K]>): void => set({ [key]: { ...(get()[key] as object), ...p } } as Partial<WorkbenchState>);
}
