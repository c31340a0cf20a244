import { describe, expect, it } from 'vitest';
import type { ExplainResult } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';

const explain = (id: string, recipeText: string): ExplainResult => ({
  id,
  source: 'wiki',
  file: 'f',
  line: 1,
  stream: 'main',
  fate: recipeText === 'strict' ? 'dropped' : 'kept',
  reason: recipeText === 'strict' ? 'dropped by rule 0' : 'kept',
  rules: [],
  text: 'hello',
  replaced: [],
});

function setup() {
  return harness({
    handlers: {
      'documents.get': ({ id }) => ({ id, source: 'wiki', file: 'f', line: 1, text: 'hello', metadata: {}, spans: [], values: {} }),
      'preview.explain': ({ id, recipeText }) => explain(id, recipeText),
    },
  });
}

describe('inspector slice', () => {
  it('loads the text and the fate under the previewed recipe', async () => {
    const { store, fake } = setup();
    store.getState().setRecipeText('loose');
    await settle();
    await store.getState().selectDocument('d1');
    const i = store.getState().inspector;
    expect(i.detail?.text).toBe('hello');
    expect(i.explain?.fate).toBe('kept');
    expect(fake.callsOf('preview.explain')).toEqual([{ recipeText: 'loose', id: 'd1' }]);
  });

  it('re-explains when a new preview succeeds, so the fate follows the recipe', async () => {
    const { store } = setup();
    store.getState().setRecipeText('loose');
    await settle();
    await store.getState().selectDocument('d1');
    store.getState().setRecipeText('strict');
    await settle();
    expect(store.getState().inspector.explain?.reason).toBe('dropped by rule 0');
  });

  it('ignores a slower answer for a document no longer selected, and clears on deselect', async () => {
    const { store, fake } = setup();
    store.getState().setRecipeText('loose');
    await settle();
    let release!: () => void;
    fake.handle('documents.get', ({ id }) =>
      id === 'slow'
        ? new Promise((r) => (release = () => r({ id, source: '', file: '', line: 1, text: 'slow', metadata: {}, spans: [], values: {} })))
        : { id, source: '', file: '', line: 1, text: 'fast', metadata: {}, spans: [], values: {} },
    );
    const slow = store.getState().selectDocument('slow');
    await store.getState().selectDocument('fast');
    release();
    await slow;
    expect(store.getState().inspector.detail?.text).toBe('fast');
    await store.getState().selectDocument(null);
    expect(store.getState().inspector).toMatchObject({ id: null, detail: null, explain: null });
  });

  it('records span group choices against their defaults, and switches the view', () => {
    const { store } = setup();
    // A span-level group starts on: toggling turns it off; a document-wide one starts off: toggling turns it on.
    store.getState().toggleSpanGroup('span:pii', true);
    store.getState().toggleSpanGroup('doc:stats', false);
    expect(store.getState().inspector.spanChoices).toEqual({ 'span:pii': false, 'doc:stats': true });
    store.getState().toggleSpanGroup('span:pii', false);
    store.getState().setInspectorView('redaction');
    expect(store.getState().inspector).toMatchObject({ spanChoices: { 'span:pii': true, 'doc:stats': true }, view: 'redaction' });
  });

  it('asks for the document with the table’s search, and again when the search changes', async () => {
    const { store, fake } = setup();
    store.getState().setRecipeText('loose');
    await settle();
    await store.getState().selectDocument('d1');
    store.getState().setDocFilter({ search: '  cookie policy ' });
    await settle();
    store.getState().setDocFilter({ search: undefined });
    await settle();
    expect(fake.callsOf('documents.get')).toEqual([{ id: 'd1' }, { id: 'd1', search: 'cookie policy' }, { id: 'd1' }]);
  });
});
