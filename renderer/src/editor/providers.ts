// Completion of recipe keys (by place), attribute keys and tagger names, and hover with a key's distribution, for YAML recipes.
import { hoverMarkdown, suggestions, tokenAt } from '../lib/recipeAssist.js';
import { keyPathAt, recipeKeys } from '../lib/recipeKeys.js';
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
      const line = model.getLineContent(position.lineNumber);
      const tok = tokenAt(line, position.column);
      const range = new monaco.Range(position.lineNumber, tok.startColumn, position.lineNumber, position.column);
      // Typing a key: the keys the recipe schema takes in that mapping (where there are none, e.g. a rule list, attribute keys).
      const path = keyPathAt(model.getLinesContent().slice(0, position.lineNumber), position.lineNumber - 1, position.column - 1);
      const keys = path === null ? [] : recipeKeys(path);
      if (keys.length > 0) {
        const indent = ' '.repeat(tok.startColumn - 1 + 2);
        return {
          suggestions: keys.map((k) => ({
            label: k.key,
            kind: monaco.languages.CompletionItemKind.Property,
            detail: k.type,
            documentation: { value: k.doc },
            insertText: k.type === 'object' ? `${k.key}:\n${indent}` : k.type === 'list of objects' ? `${k.key}:\n${indent}- ` : `${k.key}: `,
            range,
          })),
        };
      }
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
