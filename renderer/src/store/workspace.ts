// Workspace slice: the dataset's sources, files, catalogue, index status and configs; starter templates; workspace settings.
import type { ConfigTemplate, WorkspaceInfo, WorkspaceSettings } from '../../../shared/contract/index.js';
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export interface WorkspaceState {
  info: WorkspaceInfo | null;
  loading: boolean;
  error: string | null;
  /** Starter configs for this workspace (every kind); null until asked for. */
  templates: ConfigTemplate[] | null;
  templatesError: string | null;
  /** The settings the user chose (env allow-list); null until loaded. */
  settings: WorkspaceSettings | null;
  settingsError: string | null;
}

export interface WorkspaceSlice {
  workspace: WorkspaceState;
  refreshWorkspace(): Promise<void>;
  loadTemplates(): Promise<void>;
  /**
   * Renders a template for this workspace and writes it to `path` (never over an existing file unless
   * `overwrite`); returns the path written, or null with `templatesError` saying why.
   */
  createFromTemplate(id: string, path: string, opts?: { overwrite?: boolean }): Promise<string | null>;
  /** What `templates.render` suggests as the file name (the user may change it). */
  suggestTemplatePath(id: string): Promise<string | null>;
  loadSettings(): Promise<void>;
  saveSettings(envAllowList: string[]): Promise<boolean>;
}

export const createWorkspaceSlice: SliceCreator<WorkspaceSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'workspace');
  let seq = 0;
  const rendered = new Map<string, { text: string; suggestedPath: string }>();

  const render = async (id: string) => {
    const hit = rendered.get(id);
    if (hit) return hit;
    const r = await api.invoke('templates.render', { id });
    rendered.set(id, r);
    return r;
  };

  return {
    workspace: { info: null, loading: false, error: null, templates: null, templatesError: null, settings: null, settingsError: null },

    async refreshWorkspace() {
      const mine = ++seq;
      patch({ loading: true });
      // Rendered templates carry globs and keys from the catalogue, which a refresh may have changed.
      rendered.clear();
      try {
        const info = await api.invoke('workspace.info', {});
        if (mine === seq) patch({ info, loading: false, error: null });
      } catch (e) {
        if (mine === seq) patch({ loading: false, error: errorText(e) });
      }
    },

    async loadTemplates() {
      try {
        patch({ templates: await api.invoke('templates.list', {}), templatesError: null });
      } catch (e) {
        patch({ templatesError: `cannot list templates: ${errorText(e)}` });
      }
    },

    async suggestTemplatePath(id) {
      try {
        return (await render(id)).suggestedPath;
      } catch (e) {
        patch({ templatesError: `cannot render template ${id}: ${errorText(e)}` });
        return null;
      }
    },

    async createFromTemplate(id, path, opts = {}) {
      patch({ templatesError: null });
      const target = path.trim();
      if (!target) {
        patch({ templatesError: 'choose a file name inside the workspace' });
        return null;
      }
      try {
        const { text } = await render(id);
        if (!opts.overwrite) {
          const exists = await api.invoke('recipe.read', { path: target }).then(
            () => true,
            () => false,
          );
          if (exists) {
            patch({ templatesError: `${target} already exists: choose another name` });
            return null;
          }
        }
        const w = await api.invoke('recipe.write', { path: target, text });
        await get().refreshWorkspace();
        return w.path;
      } catch (e) {
        patch({ templatesError: `cannot create ${target}: ${errorText(e)}` });
        return null;
      }
    },

    async loadSettings() {
      try {
        patch({ settings: await api.invoke('settings.get', {}), settingsError: null });
      } catch (e) {
        patch({ settingsError: `cannot read the workspace settings: ${errorText(e)}` });
      }
    },

    async saveSettings(envAllowList) {
      try {
        patch({ settings: await api.invoke('settings.set', { envAllowList }), settingsError: null });
        return true;
      } catch (e) {
        patch({ settingsError: `cannot save the workspace settings: ${errorText(e)}` });
        return false;
      }
    },
  };
};
