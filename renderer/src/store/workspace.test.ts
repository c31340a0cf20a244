import { describe, expect, it } from 'vitest';
import type { ConfigTemplate } from '../../../shared/contract/index.js';
import { harness } from '../testing/harness.js';
import { workspaceInfo } from '../testing/fixtures.js';

const TEMPLATES: ConfigTemplate[] = [
  { id: 'mix/fineweb', kind: 'mix', title: 'FineWeb', description: 'DataTrove FineWeb filters' },
  { id: 'mix/catalogue', kind: 'mix', title: 'From the catalogue', description: 'one rule per attribute' },
  { id: 'tokens/gpt2', kind: 'tokens', title: 'GPT-2 tokens', description: 'memmap' },
];

function setup() {
  const h = harness({
    handlers: {
      'templates.list': () => TEMPLATES,
      'templates.render': ({ id }) => ({ id, text: `# ${id}\nstreams: []\n`, suggestedPath: `recipes/${id.split('/')[1]}.yaml` }),
      'workspace.info': () => workspaceInfo({ recipes: [...h.files.keys()].filter((p) => p.startsWith('recipes/')) }),
    },
  });
  return h;
}

describe('workspace slice: starters and templates (issues 11.3, 11.11)', () => {
  it('lists the templates, suggests a name, writes the rendered text under the chosen name and refreshes the list', async () => {
    const { store, fake, files } = setup();
    await store.getState().loadTemplates();
    expect(store.getState().workspace.templates).toEqual(TEMPLATES);
    expect(await store.getState().suggestTemplatePath('mix/fineweb')).toBe('recipes/fineweb.yaml');
    const path = await store.getState().createFromTemplate('mix/fineweb', ' recipes/mine.yaml ');
    expect(path).toBe('recipes/mine.yaml');
    expect(files.get('recipes/mine.yaml')).toBe('# mix/fineweb\nstreams: []\n');
    expect(store.getState().workspace.info?.recipes).toEqual(['recipes/mine.yaml']);
    // One render serves the suggestion and the file.
    expect(fake.callsOf('templates.render')).toEqual([{ id: 'mix/fineweb' }]);
  });

  it('never overwrites an existing file unless asked, and says why nothing was written', async () => {
    const { store, files } = setup();
    files.set('recipes/taken.yaml', 'mine: 1\n');
    expect(await store.getState().createFromTemplate('mix/catalogue', 'recipes/taken.yaml')).toBeNull();
    expect(files.get('recipes/taken.yaml')).toBe('mine: 1\n');
    expect(store.getState().workspace.templatesError).toContain('recipes/taken.yaml already exists');
    expect(await store.getState().createFromTemplate('mix/catalogue', '  ')).toBeNull();
    expect(store.getState().workspace.templatesError).toContain('choose a file name');
    expect(await store.getState().createFromTemplate('mix/catalogue', 'recipes/taken.yaml', { overwrite: true })).toBe('recipes/taken.yaml');
    expect(files.get('recipes/taken.yaml')).toContain('mix/catalogue');
    expect(store.getState().workspace.templatesError).toBeNull();
  });

  it('reports a host refusal (a path outside the workspace) without writing', async () => {
    const { store, fake, files } = setup();
    fake.handle('recipe.write', ({ path }) => {
      throw Object.assign(new Error(`path: '${path}' is outside the workspace`), { code: 'FORBIDDEN' });
    });
    expect(await store.getState().createFromTemplate('mix/fineweb', '../x.yaml')).toBeNull();
    expect(store.getState().workspace.templatesError).toMatch(/cannot create \.\.\/x\.yaml: .*outside the workspace/);
    expect(files.has('../x.yaml')).toBe(false);
  });
});

describe('workspace slice: settings (issue 12.5)', () => {
  it('reads and saves the env allow-list, and keeps the error when the host refuses', async () => {
    let saved = ['HOME'];
    const { store, fake } = harness({
      handlers: {
        'settings.get': () => ({ envAllowList: saved }),
        'settings.set': ({ envAllowList }) => {
          if (envAllowList.includes('BAD')) throw Object.assign(new Error('BAD is reserved'), { code: 'BAD_REQUEST' });
          saved = envAllowList;
          return { envAllowList };
        },
      },
    });
    await store.getState().loadSettings();
    expect(store.getState().workspace.settings).toEqual({ envAllowList: ['HOME'] });
    expect(await store.getState().saveSettings(['HOME', 'DATA_ROOT'])).toBe(true);
    expect(saved).toEqual(['HOME', 'DATA_ROOT']);
    expect(fake.callsOf('settings.set')).toEqual([{ envAllowList: ['HOME', 'DATA_ROOT'] }]);
    expect(await store.getState().saveSettings(['BAD'])).toBe(false);
    expect(store.getState().workspace).toMatchObject({ settings: { envAllowList: ['HOME', 'DATA_ROOT'] }, settingsError: expect.stringContaining('BAD is reserved') });
  });
});
