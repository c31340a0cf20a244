// Completion of attribute keys and tagger names, and hover with a key's distribution, for YAML recipes.
import { hoverMarkdown, suggestions, tokenAt } from '../lib/recipeAssist.js';
import type { WorkbenchStore } from '../store/create.js';
import { monaco } from './monaco.js';

// Monaco providers are global; they are registered once and read whichever store mounted last.
let current: WorkbenchStore | null = null;

const catalogue = () => current?.getState().workspace.info?.attributes ?? [];

export function registerRecipeProviders(store: WorkbenchStore): void {
  const first = current === null;
  current = store;
  if (!first) return;

  monaco.languages.registerCompletionItemProvider('yaml', {
    triggerCharacters: ['.', '"', "'", '@'],
    provideCompletionItems(model, position) {
      const tok = tokenAt(model.getLineContent(position.lineNumber), position.column);
      const range = new monaco.Range(position.lineNumber, tok.startColumn, position.lineNumber, position.column);
      return {
        suggestions: suggestions(catalogue()).map((s) => ({
          label: s.label,
          kind: s.kind === 'attribute' ? monaco.languages.CompletionItemKind.Field : monaco.languages.CompletionItemKind.Module,
          detail: s.detail,
          documentation: { value: s.documentation },
          insertText: s.label,
          range,
        })),
      };
    },
  });

  monaco.languages.registerHoverProvider('yaml', {
    provideHover(model, position) {
      const tok = tokenAt(model.getLineContent(position.lineNumber), position.column);
      const info = tok.word ? catalogue().find((a) => a.key === tok.word) : undefined;
      if (!info) return null;
      return {
        range: new monaco.Range(position.lineNumber, tok.startColumn, position.lineNumber, tok.endColumn),
        contents: [{ value: hoverMarkdown(info) }],
      };
    },
  });
}
