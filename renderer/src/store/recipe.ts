// Recipe slice: the open recipe file, its editor text and the text last read from / written to disk.
import { errorText } from '../api/errors.js';
import { patcher, type SliceCreator } from './types.js';

export interface RecipeState {
  /** Workspace-relative path of the open file; null before one is opened. */
  path: string | null;
  /** What the editor holds. */
  text: string;
  /** What the file on disk holds, as far as we know (last read or written). */
  savedText: string;
  loading: boolean;
  saving: boolean;
  error: string | null;
  /** The file changed on disk while the editor held unsaved edits (neither is overwritten silently). */
  diskChanged: boolean;
}

export interface RecipeSlice {
  recipe: RecipeState;
  /** Reads the file from disk (the file is the truth) and previews it. */
  openRecipe(path: string): Promise<void>;
  /** Writes the editor text to `path` (default: the open file); true when it was written. */
  saveRecipe(path?: string): Promise<boolean>;
  setRecipeText(text: string): void;
  /**
   * Re-reads the open file (the app regained focus): an external change replaces a clean editor's text,
   * and is flagged when the editor has unsaved edits.
   */
  checkDisk(): Promise<void>;
}

export const isDirty = (s: { recipe: RecipeState }): boolean => s.recipe.text !== s.recipe.savedText;

export const createRecipeSlice: SliceCreator<RecipeSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'recipe');
  let openSeq = 0;
  return {
    recipe: { path: null, text: '', savedText: '', loading: false, saving: false, error: null, diskChanged: false },

    async openRecipe(path) {
      const mine = ++openSeq;
      patch({ loading: true, error: null });
      try {
        const r = await api.invoke('recipe.read', { path });
        if (mine !== openSeq) return;
        patch({ path: r.path, text: r.text, savedText: r.text, loading: false, diskChanged: false });
        get().resetSweepRule();
        void get().runPreview();
      } catch (e) {
        if (mine === openSeq) patch({ loading: false, error: `cannot open ${path}: ${errorText(e)}` });
      }
    },

    async saveRecipe(path) {
      const target = path ?? get().recipe.path;
      if (!target) {
        patch({ error: 'no file to save to: choose a path' });
        return false;
      }
      const text = get().recipe.text;
      patch({ saving: true, error: null });
      try {
        const r = await api.invoke('recipe.write', { path: target, text });
        const isNew = r.path !== get().recipe.path;
        patch({ path: r.path, savedText: text, saving: false, diskChanged: false });
        if (isNew) void get().refreshWorkspace();
        return true;
      } catch (e) {
        patch({ saving: false, error: `cannot save ${target}: ${errorText(e)}` });
        return false;
      }
    },

    async checkDisk() {
      const { path, loading, saving } = get().recipe;
      if (path === null || loading || saving) return;
      let disk: string;
      try {
        disk = (await api.invoke('recipe.read', { path })).text;
      } catch {
        return; // gone or unreadable: the next save reports it
      }
      const r = get().recipe;
      if (r.path !== path || disk === r.savedText) return;
      if (r.text === r.savedText) {
        patch({ text: disk, savedText: disk, diskChanged: false });
        get().schedulePreview();
      } else patch({ diskChanged: true });
    },

    setRecipeText(text) {
      if (text === get().recipe.text) return;
      patch({ text });
      get().schedulePreview();
    },
  };
};
