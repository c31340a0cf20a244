import { describe, expect, it } from 'vitest';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';
import { wireEvents } from './create.js';
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
    // Save does not overwrite the other version; Overwrite does.
    expect(await store.getState().saveRecipe()).toBe(false);
    expect(store.getState().recipe.error).toContain('changed on disk');
    expect(files.get('configs/demo.yaml')).toBe('changed: again\n');
    expect(await store.getState().saveRecipe(undefined, undefined, true)).toBe(true);
    expect(store.getState().recipe).toMatchObject({ diskChanged: false, error: null, savedText: 'mine: 1\n' });
    expect(files.get('configs/demo.yaml')).toBe('mine: 1\n');
  });

  it('refuses to save over a change on disk it has not noticed yet (a watch event still on its way)', async () => {
    const { store, fake, files } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    const opened = files.get('configs/demo.yaml');
    store.getState().setRecipeText('mine: 1\n');
    files.set('configs/demo.yaml', 'theirs: 1\n');
    expect(await store.getState().saveRecipe()).toBe(false);
    expect(fake.callsOf('recipe.write').at(-1)).toEqual({ path: 'configs/demo.yaml', text: 'mine: 1\n', expect: opened });
    expect(store.getState().recipe).toMatchObject({ text: 'mine: 1\n', diskChanged: true });
    expect(files.get('configs/demo.yaml')).toBe('theirs: 1\n');
    // The same through a run's save-before-launch; another path (Save as) is not compared.
    expect(await store.getState().saveRecipe('configs/demo.yaml', 'run: 1\n')).toBe(false);
    expect(await store.getState().saveRecipe('configs/copy.yaml')).toBe(true);
    expect(fake.callsOf('recipe.write').at(-1)).toEqual({ path: 'configs/copy.yaml', text: 'mine: 1\n', create: true });
    expect(files.get('configs/copy.yaml')).toBe('mine: 1\n');
    expect(store.getState().recipe.conflict).toBeNull();
  });

  it('saves under a new name only where no file is, unless told to replace it', async () => {
    const { store, files } = harness();
    files.set('configs/other.yaml', 'other: 1\n');
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('mine: 1\n');
    expect(await store.getState().saveRecipe('configs/other.yaml')).toBe(false);
    expect(store.getState().recipe).toMatchObject({ path: 'configs/demo.yaml', conflict: 'configs/other.yaml', diskChanged: false });
    expect(store.getState().recipe.error).toContain("'configs/other.yaml' already exists");
    expect(files.get('configs/other.yaml')).toBe('other: 1\n');
    expect(await store.getState().saveRecipe('configs/other.yaml', undefined, true)).toBe(true);
    expect(store.getState().recipe).toMatchObject({ path: 'configs/other.yaml', conflict: null, error: null });
    expect(files.get('configs/other.yaml')).toBe('mine: 1\n');
  });
});

/** The host's watch: what is watched, and `file.changed` emitted through the wired events. */
function watching() {
  const h = harness({ handlers: { 'recipe.watch': ({ path }) => ({ path }), 'recipe.unwatch': ({ path }) => ({ path }) } });
  h.files.set('configs/other.yaml', 'other: 1\n');
  wireEvents(h.store, h.fake.api);
  return h;
}

describe('recipe slice: following the file on disk (issue 11.5)', () => {
  it('watches the open recipe, and moves the watch when another one is opened', async () => {
    const { store, fake } = watching();
    await store.getState().openRecipe('configs/demo.yaml');
    await settle();
    expect(fake.callsOf('recipe.watch')).toEqual([{ path: 'configs/demo.yaml' }]);
    await store.getState().openRecipe('configs/other.yaml');
    await settle();
    expect(fake.callsOf('recipe.unwatch')).toEqual([{ path: 'configs/demo.yaml' }]);
    expect(fake.callsOf('recipe.watch').at(-1)).toEqual({ path: 'configs/other.yaml' });
    const order = fake.calls.map((c) => c.method).filter((m) => m.startsWith('recipe.') && m.endsWith('watch'));
    expect(order).toEqual(['recipe.watch', 'recipe.unwatch', 'recipe.watch']);
    // Saving under a new name watches that file instead.
    await store.getState().saveRecipe('configs/copy.yaml');
    await settle();
    expect(fake.callsOf('recipe.watch').at(-1)).toEqual({ path: 'configs/copy.yaml' });
  });

  it('a clean editor takes the change from the file.changed event; a modified one is flagged at once', async () => {
    const { store, fake, files } = watching();
    await store.getState().openRecipe('configs/demo.yaml');
    files.set('configs/demo.yaml', 'from: shell\n');
    fake.emit('file.changed', { path: 'configs/demo.yaml', exists: true });
    await settle();
    expect(store.getState().recipe).toMatchObject({ text: 'from: shell\n', savedText: 'from: shell\n', diskChanged: false });
    expect(fake.callsOf('preview.run').at(-1)).toEqual({ recipeText: 'from: shell\n' });

    store.getState().setRecipeText('mine: 1\n');
    files.set('configs/demo.yaml', 'from: shell again\n');
    fake.emit('file.changed', { path: 'configs/demo.yaml', exists: true });
    await settle();
    expect(store.getState().recipe).toMatchObject({ text: 'mine: 1\n', diskChanged: true });
  });

  it('ignores changes to other files and to what it wrote itself; flags a deleted file', async () => {
    const { store, fake, files } = watching();
    await store.getState().openRecipe('configs/demo.yaml');
    files.set('configs/other.yaml', 'changed: 1\n');
    fake.emit('file.changed', { path: 'configs/other.yaml', exists: true });
    store.getState().setRecipeText('mine: 2\n');
    await store.getState().saveRecipe();
    fake.emit('file.changed', { path: 'configs/demo.yaml', exists: true });
    await settle();
    expect(store.getState().recipe).toMatchObject({ text: 'mine: 2\n', diskChanged: false, diskGone: false });
    fake.emit('file.changed', { path: 'configs/demo.yaml', exists: false });
    expect(store.getState().recipe).toMatchObject({ text: 'mine: 2\n', diskGone: true });
    await store.getState().saveRecipe();
    expect(store.getState().recipe.diskGone).toBe(false);
  });

  it('watches again after a reconnect and looks at the disk (events sent meanwhile are lost)', async () => {
    const { store, fake, files } = watching();
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setConnectionStatus('closed');
    files.set('configs/demo.yaml', 'while: away\n');
    store.getState().setConnectionStatus('open');
    await settle();
    expect(fake.callsOf('recipe.watch')).toEqual([{ path: 'configs/demo.yaml' }, { path: 'configs/demo.yaml' }]);
    expect(store.getState().recipe.text).toBe('while: away\n');
  });

  it('still opens recipes when the host cannot watch (the focus check remains)', async () => {
    const { store, files } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    await settle();
    expect(store.getState().recipe.error).toBeNull();
    files.set('configs/demo.yaml', 'x: 1\n');
    await store.getState().checkDisk();
    expect(store.getState().recipe.text).toBe('x: 1\n');
  });
});

describe('recipe slice: edits', () => {
  it('remembers the line of the latest edit, typed or written by the app, and forgets it on open', async () => {
    const { store } = harness();
    await store.getState().openRecipe('configs/demo.yaml');
    const text = store.getState().recipe.text;
    expect(store.getState().recipe.lastEditLine).toBeNull();
    store.getState().setRecipeText(text.replace('  - name: main', ' - name: main'));
    expect(store.getState().recipe.lastEditLine).toBe(2);
    store.getState().setRecipeText(store.getState().recipe.text.replace('< 50', '< 70'), 'drag-1');
    expect(store.getState().recipe).toMatchObject({ lastEditLine: 5, undoGroup: 'drag-1' });
    store.getState().setRecipeText(store.getState().recipe.text + '# end\n');
    expect(store.getState().recipe).toMatchObject({ lastEditLine: 6, undoGroup: null });
    await store.getState().openRecipe('configs/demo.yaml');
    expect(store.getState().recipe.lastEditLine).toBeNull();
  });
});
