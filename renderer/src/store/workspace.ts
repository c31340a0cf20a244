// Workspace slice: the dataset's sources, files, attribute catalogue, index status and recipe files.
import type { WorkspaceInfo } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export interface WorkspaceState {
  info: WorkspaceInfo | null;
  loading: boolean;
  error: string | null;
}

export interface WorkspaceSlice {
  workspace: WorkspaceState;
  refreshWorkspace(): Promise<void>;
}

export const createWorkspaceSlice: SliceCreator<WorkspaceSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'workspace');
  let seq = 0;
  return {
    workspace: { info: null, loading: false, error: null },
    async refreshWorkspace() {
      const mine = ++seq;
      patch({ loading: true });
      try {
        const info = await api.invoke('workspace.info', {});
        if (mine === seq) patch({ info, loading: false, error: null });
      } catch (e) {
        if (mine === seq) patch({ loading: false, error: errorText(e) });
      }
    },
  };
};
