// Lint: typescript-eslint recommended plus the layer import rules of DESIGN.md §2.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'worker_threads', 'zlib', 'crypto', 'stream', 'stream/*', 'url', 'util', 'module'];
const NODE_ONLY_PACKAGES = ['better-sqlite3', 'zstd-napi', 'jq-web'];
const UI_PACKAGES = ['react', 'react-dom', 'react/*', 'monaco-editor', 'monaco-editor/*', 'echarts', 'echarts/*', 'zustand', 'zustand/*', '@tanstack/*'];

/** Value imports that a layer must not make; `import type` is allowed across layers. */
const restrict = (patterns, message) => ({
  '@typescript-eslint/no-restricted-imports': [
    'error',
    { patterns: [{ group: patterns, message, allowTypeImports: true }] },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'work/**', 'bench/.data/**', 'bench/kernel/*.as.ts', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: restrict(
      [...NODE_BUILTINS, ...NODE_ONLY_PACKAGES, ...UI_PACKAGES, 'electron', '**/workers/**', '**/main/**', '**/renderer/**'],
      'shared/ imports nothing runtime-specific (DESIGN.md §2)',
    ),
  },
  {
    files: ['workers/engine/**/*.ts'],
    rules: restrict(['electron', ...UI_PACKAGES, '**/host/**', '**/main/**', '**/renderer/**'], 'the engine is a plain Node library: no electron, UI or app imports'),
  },
  {
    // The CLI and pool workers run as a vm.Script (V8's code cache, code-cache/), where import() needs a flag on Node 20:
    // packages and file URLs are imported through workers/engine/import-module.ts instead.
    files: ['workers/engine/**/*.ts'],
    ignores: ['workers/engine/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "ImportExpression[source.type='Literal']:not([source.value=/^\\.\\.?\\//])", message: 'import a package through importModule() (workers/engine/import-module.ts)' },
        { selector: "ImportExpression:not([source.type='Literal'])", message: 'import a computed specifier through importModule() (workers/engine/import-module.ts)' },
      ],
    },
  },
  {
    files: ['workers/host/**/*.ts'],
    rules: restrict(['electron', ...UI_PACKAGES, '**/main/**', '**/renderer/**'], 'the host adds only the engine to shared/ (electron for types only)'),
  },
  {
    files: ['main/**/*.ts'],
    rules: restrict([...UI_PACKAGES, '**/renderer/**', '**/workers/engine/**'], 'main/ stays thin: shared/, the host launcher and electron'),
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([...NODE_BUILTINS, ...NODE_ONLY_PACKAGES, 'electron', '**/workers/**', '**/main/**'], 'the renderer imports shared/ and DOM/React only'),
  },
);
