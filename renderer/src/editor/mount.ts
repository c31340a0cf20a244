// Mounts Monaco on an element and keeps it in step with the store: text both ways (app edits as undo steps), markers, threshold highlight, Ctrl+S.
import { recipeMarkers } from '../lib/markers.js';
import { minimalEdit } from '../lib/textEdit.js';
import { monacoTheme } from '../lib/theme.js';
import { pointerGestures, UndoSteps } from '../lib/undoSteps.js';
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
    theme: monacoTheme(store.getState().ui.theme),
  });
  editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => void store.getState().saveRecipe());

  let applying = false;
  const onEdit = model.onDidChangeContent(() => {
    if (!applying) store.getState().setRecipeText(model.getValue());
  });

  // Edits the app makes (a threshold drag or box edit, the file changing on disk) are undo steps of their own; the
  // many writes of one drag (one pointer press outside the editor) are one step.
  const steps = new UndoSteps();
  const gestures = pointerGestures(window, () => el);
  const pushText = (s: WorkbenchState, pathChanged: boolean): void => {
    const cur = model.getValue();
    if (s.recipe.text === cur) return;
    applying = true;
    try {
      if (pathChanged) {
        model.setValue(s.recipe.text); // another file: its own undo history
        steps.reset();
        return;
      }
      const e = minimalEdit(cur, s.recipe.text);
      if (!e) return;
      const group = s.recipe.undoGroup ?? gestures.group();
      if (steps.before(group, model.getAlternativeVersionId())) editor.pushUndoStop();
      const range = monaco.Range.fromPositions(model.getPositionAt(e.start), model.getPositionAt(e.end));
      editor.executeEdits('assay', [{ range, text: e.text }]);
      if (steps.after(group, model.getAlternativeVersionId())) editor.pushUndoStop();
    } finally {
      applying = false;
    }
  };

  const thresholdDecor = editor.createDecorationsCollection();
  const decorate = (s: WorkbenchState): void => {
    const ruleLines = new Map((s.preview.result?.rules ?? []).flatMap((r) => (r.line !== undefined ? [[r.index, r.line] as const] : [])));
    const refused = s.runs.refused?.text === s.recipe.text ? s.runs.refused : null;
    const markers = recipeMarkers(s.recipe.text, s.preview.error, s.preview.lint, ruleLines, { refused, lastEditLine: s.recipe.lastEditLine });
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

  // The e2e hook reads back what Monaco itself shows: its markers and the cursor.
  const hook = window.__assayEditor;
  if (hook) {
    hook.markers = () =>
      monaco.editor.getModelMarkers({ resource: model.uri, owner: 'assay' }).map((m) => ({
        line: m.startLineNumber,
        column: m.startColumn,
        endColumn: m.endColumn,
        severity: m.severity === monaco.MarkerSeverity.Error ? 'error' : 'warning',
        message: m.message,
        source: m.source ?? '',
      }));
    hook.position = () => {
      const p = editor.getPosition();
      return p ? { line: p.lineNumber, column: p.column } : null;
    };
  }

  const unsubscribe = store.subscribe((s, prev) => {
    if (s.ui.theme !== prev.ui.theme) monaco.editor.setTheme(monacoTheme(s.ui.theme));
    if (s.recipe.text !== prev.recipe.text) pushText(s, s.recipe.path !== prev.recipe.path);
    if (s.recipe.text !== prev.recipe.text || s.preview !== prev.preview || s.distributions.rule !== prev.distributions.rule || s.runs.refused !== prev.runs.refused) decorate(s);
    const r = s.ui.reveal;
    if (r && r !== prev.ui.reveal) {
      editor.revealLineInCenter(r.line);
      editor.setPosition({ lineNumber: r.line, column: 1 });
      editor.focus();
    }
  });

  return () => {
    unsubscribe();
    if (hook) {
      delete hook.markers;
      delete hook.position;
    }
    gestures.dispose();
    onEdit.dispose();
    editor.dispose();
    model.dispose();
  };
}
