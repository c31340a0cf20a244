// Recipe slice: the open recipe file, its editor text, the text last read from / written to disk, and the disk watch.
import { errorText, toErrorPayload } from '../api/errors.js';
import { minimalEdit } from '../lib/textEdit.js';
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
  /** The watched file disappeared from disk (the editor keeps its text; Save writes it back). */
  diskGone: boolean;
  /** The path the latest save was refused for because of what is on disk there (changed since read, or a new name taken). */
  conflict: string | null;
  /**
   * The undo step the latest text change belongs to, when it came from the app rather than the keyboard:
   * consecutive changes with the same group are one undo step (one threshold drag); null is a step of its own.
   */
  undoGroup: string | null;
  /** 1-based line of the latest edit (typed or written by the app) since the file was opened; null before any. */
  lastEditLine: number | null;
}

export interface RecipeSlice {
  recipe: RecipeState;
  /** Reads the file from disk (the file is the truth), watches it for changes and previews it. */
  openRecipe(path: string): Promise<void>;
  /**
   * Writes `text` (default: the editor text) to `path` (default: the open file); true when it was written. Unless
   * `overwrite` (the user chose their version over the one on disk), it fails and sets `conflict` when the open file
   * changed on disk since the editor last read or wrote it (also flagging `diskChanged`), or when another path exists.
   */
  saveRecipe(path?: string, text?: string, overwrite?: boolean): Promise<boolean>;
  /** `undoGroup`: see RecipeState.undoGroup; omit it for an edit that is its own undo step. */
  setRecipeText(text: string, undoGroup?: string): void;
  /**
   * Re-reads the open file (the host said it changed, or the app regained focus): an external change replaces a
   * clean editor's text, and is flagged when the editor has unsaved edits.
   */
  checkDisk(): Promise<void>;
  /** The host's `file.changed` event. */
  onFileChanged(e: { path: string; exists: boolean }): void;
  /** Asks the host again to watch the open file (after a reconnect: the host may have restarted). */
  rewatchRecipe(): Promise<void>;
}

export const isDirty = (s: { recipe: RecipeState }): boolean => s.recipe.text !== s.recipe.savedText;

/** 1-based line in `after` where the change from `before` starts. */
function editLine(before: string, after: string): number | null {
  const e = minimalEdit(before, after);
  if (!e) return null;
  let line = 1;
  for (let i = after.indexOf('\n'); i >= 0 && i < e.start; i = after.indexOf('\n', i + 1)) line++;
  return line;
}

export const createRecipeSlice: SliceCreator<RecipeSlice> = ({ api }) => (set, get) => {
  const patch = patcher(set, get, 'recipe');
  let openSeq = 0;
  /** The path the host watches for us. */
  let watched: string | null = null;

  const watch = async (path: string): Promise<void> => {
    const old = watched;
    if (old === path) return;
    watched = path;
    // A host without watching still leaves the focus check (main.tsx) to notice changes.
    if (old !== null) await api.invoke('recipe.unwatch', { path: old }).catch(() => undefined);
    await api.invoke('recipe.watch', { path }).catch(() => undefined);
  };

  return {
    recipe: { path: null, text: '', savedText: '', loading: false, saving: false, error: null, diskChanged: false, diskGone: false, conflict: null, undoGroup: null, lastEditLine: null },

    async openRecipe(path) {
      const mine = ++openSeq;
      patch({ loading: true, error: null });
      try {
        const r = await api.invoke('recipe.read', { path });
        if (mine !== openSeq) return;
        patch({ path: r.path, text: r.text, savedText: r.text, loading: false, diskChanged: false, diskGone: false, undoGroup: null, lastEditLine: null });
        get().resetSweepRule();
        void get().runPreview();
        void watch(r.path);
      } catch (e) {
        if (mine === openSeq) patch({ loading: false, error: `cannot open ${path}: ${errorText(e)}` });
      }
    },

    async saveRecipe(path, textArg, overwrite = false) {
      const target = path ?? get().recipe.path;
      if (!target) {
        patch({ error: 'no file to save to: choose a path' });
        return false;
      }
      const text = textArg ?? get().recipe.text;
      const { path: open, savedText } = get().recipe;
      patch({ saving: true, error: null });
      try {
        const guard = overwrite ? {} : target === open ? { expect: savedText } : { create: true };
        const r = await api.invoke('recipe.write', { path: target, text, ...guard });
        const isNew = r.path !== get().recipe.path;
        patch({ path: r.path, savedText: text, saving: false, diskChanged: false, diskGone: false, conflict: null });
        // Compared with the saved version (or this file): the baseline just changed.
        if (get().compare.target !== null) void get().runCompare();
        if (isNew) {
          void get().refreshWorkspace();
          void watch(r.path);
        }
        return true;
      } catch (e) {
        const conflict = toErrorPayload(e).code === 'CONFLICT' ? target : null;
        const flag = conflict !== null && target === get().recipe.path ? { diskChanged: true, diskGone: false } : {};
        patch({ saving: false, error: `cannot save ${target}: ${errorText(e)}`, conflict, ...flag });
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
      if (r.path !== path) return;
      if (disk === r.savedText) {
        if (r.diskGone) patch({ diskGone: false });
        return;
      }
      if (r.text === r.savedText) {
        patch({ text: disk, savedText: disk, diskChanged: false, diskGone: false, undoGroup: null, lastEditLine: editLine(r.text, disk) });
        get().schedulePreview();
      } else patch({ diskChanged: true, diskGone: false });
    },

    onFileChanged({ path, exists }) {
      if (path !== get().recipe.path) return;
      if (exists) void get().checkDisk();
      else patch({ diskGone: true });
    },

    async rewatchRecipe() {
      const path = watched;
      if (path === null) return;
      watched = null;
      await watch(path);
    },

    setRecipeText(text, undoGroup) {
      const before = get().recipe.text;
      if (text === before) return;
      patch({ text, undoGroup: undoGroup ?? null, lastEditLine: editLine(before, text) ?? get().recipe.lastEditLine });
      get().schedulePreview();
    },
  };
};
