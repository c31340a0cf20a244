import { describe, expect, it } from 'vitest';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { isDirty } from './recipe.js';

describe('recipe slice', () => {
  it('opens a file from disk, marks it clean and previews it', async () => {
    const { store, fake, files } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    const s = store.getState();
    expect(s.recipe).toMatchObject({ path: 'configs/demo.yaml', text: files.get('configs/demo.yaml'), loading: false, error: null });
    expect(isDirty(s)).toBe(false);
    await settle();
    expect(fake.callsOf('preview.run')).toEqual([{ recipeText: files.get('configs/demo.yaml') }]);
  });

  it('tracks edits as dirty and previews the edited text', async () => {
    const { store, fake } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    await settle();
    store.getState().setRecipeText('streams: []\n');
    expect(isDirty(store.getState())).toBe(true);
    await settle();
    expect(fake.callsOf('preview.run').at(-1)).toEqual({ recipeText: 'streams: []\n' });
  });

  it('saves the editor text to the file, and to a new path (which refreshes the recipe list)', async () => {
    const { store, fake, files } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('a: 1\n');
    expect(await store.getState().saveRecipe()).toBe(true);
    expect(files.get('configs/demo.yaml')).toBe('a: 1\n');
    expect(isDirty(store.getState())).toBe(false);
    store.getState().setRecipeText('a: 2\n');
    expect(await store.getState().saveRecipe('configs/copy.yaml')).toBe(true);
    expect(store.getState().recipe.path).toBe('configs/copy.yaml');
    expect(files.get('configs/copy.yaml')).toBe('a: 2\n');
    expect(fake.callsOf('workspace.info')).toHaveLength(1);
  });

  it('keeps the edits and reports the error when the write fails or the file cannot be read', async () => {
    const { store, fake } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('a: 1\n');
    fake.handle('recipe.write', () => {
      throw Object.assign(new Error('path escapes the workspace'), { code: 'FORBIDDEN' });
    });
    expect(await store.getState().saveRecipe('../x.yaml')).toBe(false);
    expect(store.getState().recipe.error).toContain('path escapes the workspace');
    expect(isDirty(store.getState())).toBe(true);
    await store.getState().openRecipe('configs/missing.yaml');
    expect(store.getState().recipe.error).toContain('no such file');
    expect(store.getState().recipe.text).toBe('a: 1\n');
  });
});

describe('recipe slice: the file on disk is the truth', () => {
  it('takes an external change into a clean editor, and flags it over unsaved edits', async () => {
    const { store, files } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    files.set('configs/demo.yaml', 'changed: outside\n');
    await store.getState().checkDisk();
    expect(store.getState().recipe).toMatchObject({ text: 'changed: outside\n', savedText: 'changed: outside\n', diskChanged: false });
    store.getState().setRecipeText('mine: 1\n');
    files.set('configs/demo.yaml', 'changed: again\n');
    await store.getState().checkDisk();
    expect(store.getState().recipe).toMatchObject({ text: 'mine: 1\n', diskChanged: true });
    await store.getState().saveRecipe();
    expect(store.getState().recipe.diskChanged).toBe(false);
    expect(files.get('configs/demo.yaml')).toBe('mine: 1\n');
  });
});
