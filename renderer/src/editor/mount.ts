// Mounts Monaco on an element and keeps it in step with the store: text both ways, markers, threshold highlight, Ctrl+S.
import { recipeMarkers } from '../lib/markers.js';
import { minimalEdit } from '../lib/textEdit.js';
import { numberAt } from '../lib/yamlNumber.js';
import type { WorkbenchStore } from '../store/create.js';
import { sweepRule } from '../store/distributions.js';
import type { WorkbenchState } from '../store/types.js';
import { monaco } from './monaco.js';
import { registerRecipeProviders } from './providers.js';

const SEVERITY = { error: monaco.MarkerSeverity.Error, warning: monaco.MarkerSeverity.Warning } as const;

export function mountEditor(el: HTMLElement, store: WorkbenchStore): () => void {
  registerRecipeProviders(store);
  const model = monaco.editor.createModel(store.getState().recipe.text, 'yaml');
  const editor = monaco.editor.create(el, {
    model,
    automaticLayout: true,
    minimap: { enabled: false },
    fontSize: 12,
    lineNumbersMinChars: 3,
    scrollBeyondLastLine: false,
    tabSize: 2,
    insertSpaces: true,
    // Filter expressions are quoted YAML strings: suggest keys inside strings too.
    quickSuggestions: { other: true, strings: true, comments: false },
    wordBasedSuggestions: 'off',
    fixedOverflowWidgets: true,
    renderLineHighlight: 'line',
  });
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void store.getState().saveRecipe());

  let applying = false;
  const onEdit = model.onDidChangeContent(() => {
    if (!applying) store.getState().setRecipeText(model.getValue());
  });

  const pushText = (s: WorkbenchState, pathChanged: boolean): void => {
    const cur = model.getValue();
    if (s.recipe.text === cur) return;
    applying = true;
    try {
      if (pathChanged) model.setValue(s.recipe.text); // another file: its own undo history
      else {
        const e = minimalEdit(cur, s.recipe.text);
        if (e) {
          const range = monaco.Range.fromPositions(model.getPositionAt(e.start), model.getPositionAt(e.end));
          model.pushEditOperations([], [{ range, text: e.text }], () => null);
        }
      }
    } finally {
      applying = false;
    }
  };

  const thresholdDecor = editor.createDecorationsCollection();
  const decorate = (s: WorkbenchState): void => {
    const markers = recipeMarkers(s.recipe.text, s.preview.error, s.preview.lint, new Map((s.preview.result?.rules ?? []).flatMap((r) => (r.line !== undefined ? [[r.index, r.line] as const] : []))));
    monaco.editor.setModelMarkers(model, 'assay', markers.map((m) => ({ ...m, severity: SEVERITY[m.severity] })));
    const loc = sweepRule(s)?.sweep?.location;
    const n = loc ? numberAt(s.recipe.text, loc) : null;
    thresholdDecor.set(
      n && loc
        ? [{ range: new monaco.Range(loc.line, loc.column, loc.line, loc.column + n.literal.length), options: { inlineClassName: 'threshold-literal', hoverMessage: { value: 'threshold drawn on the histogram' } } }]
        : [],
    );
  };
  decorate(store.getState());

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.recipe.text !== prev.recipe.text) pushText(s, s.recipe.path !== prev.recipe.path);
    if (s.recipe.text !== prev.recipe.text || s.preview !== prev.preview || s.distributions.rule !== prev.distributions.rule) decorate(s);
    const r = s.ui.reveal;
    if (r && r !== prev.ui.reveal) {
      editor.revealLineInCenter(r.line);
      editor.setPosition({ lineNumber: r.line, column: 1 });
      editor.focus();
    }
  });

  return () => {
    unsubscribe();
    onEdit.dispose();
    editor.dispose();
    model.dispose();
  };
}
