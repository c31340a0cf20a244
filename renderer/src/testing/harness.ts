// A workbench store over the fake api with working defaults: a file map for recipes, generated document pages.
import type { DocumentQuery } from '../../../shared/contract/index.js';
import { createWorkbenchStore, type WorkbenchStore } from '../store/create.js';
import { createFakeApi, type FakeApi, type Handlers } from './fakeApi.js';
import { docRow, previewResult, rule, workspaceInfo } from './fixtures.js';

export interface Harness {
  store: WorkbenchStore;
  fake: FakeApi;
  files: Map<string, string>;
}

/** `docs` rows exist; each page is generated from its offset so any offset can be asked for. */
export function harness(opts: { docs?: number; handlers?: Handlers; previewGapMs?: number } = {}): Harness {
  const docs = opts.docs ?? 1000;
  const files = new Map<string, string>([['configs/demo.yaml', 'streams:\n  - name: main\n    filter:\n      exclude:\n        - "$.attributes[?(@.k0 < 50)]"\n']]);
  const fake = createFakeApi({
    'workspace.info': () => workspaceInfo(),
    'recipe.read': ({ path }) => {
      const text = files.get(path);
      if (text === undefined) throw Object.assign(new Error(`no such file: ${path}`), { code: 'NOT_FOUND' });
      return { path, text };
    },
    'recipe.write': ({ path, text, expect, create }) => {
      const now = files.get(path);
      if (create && now !== undefined) throw Object.assign(new Error(`'${path}' already exists`), { code: 'CONFLICT' });
      if (expect !== undefined && now !== undefined && now !== expect) throw Object.assign(new Error(`'${path}' changed on disk since the editor read it`), { code: 'CONFLICT' });
      files.set(path, text);
      return { path, bytes: text.length };
    },
    'preview.run': () => previewResult([rule(0, 40)]),
    'preview.lint': () => [],
    'documents.page': (q: DocumentQuery) => ({
      total: docs,
      offset: q.offset,
      rows: Array.from({ length: Math.max(0, Math.min(q.limit, docs - q.offset)) }, (_, i) => docRow(q.offset + i)),
    }),
    'jobs.list': () => [],
    ...opts.handlers,
  });
  const store = createWorkbenchStore(fake.api, { previewGapMs: opts.previewGapMs ?? 0 });
  return { store, fake, files };
}
