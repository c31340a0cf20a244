// The React binding of the workbench store: components read it only through useWorkbench.
import { createContext, createElement, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { WorkbenchStore } from './create.js';
import type { WorkbenchState } from './types.js';

const StoreContext = createContext<WorkbenchStore | null>(null);

export function WorkbenchProvider({ store, children }: { store: WorkbenchStore; children: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

function useWorkbenchStore(): WorkbenchStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useWorkbench outside <WorkbenchProvider>');
  return store;
}

/** Subscribes to a slice of state; the selector must return stable references (select fields, not new objects). */
export function useWorkbench<T>(selector: (s: WorkbenchState) => T): T {
  return useStore(useWorkbenchStore(), selector);
}

/** Actions and one-off reads without subscribing (event handlers). */
export function useWorkbenchApi(): WorkbenchStore {
  return useWorkbenchStore();
}

export type { WorkbenchState, WorkbenchStore };
export { isDirty } from './recipe.js';
export { currentThreshold, sweepRule } from './distributions.js';
export { rowAt, PAGE_SIZE } from './documents.js';
