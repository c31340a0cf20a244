// The preview engine on bad input: recipe errors located by line and column, missing or moved datasets, and
// readers keeping a consistent snapshot while the index is rebuilt.
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RecipeError } from '../mix/config.js';
import { scratchDir, writeJsonl } from '../testing.js';
import { buildIndex, PreviewEngine } from './index.js';

async function small(root: string, n = 6): Promise<void> {
  const docs = Array.from({ length: n }, (_, i) => ({ id: `d${i}`, text: `document number ${i} `.repeat(i + 1), source: i % 2 ? 'a' : 'b' }));
  writeJsonl(join(root, 'documents/x.jsonl.gz'), docs);
  writeJsonl(join(root, 'attributes/q/x.jsonl.gz'), docs.map((d, i) => ({ id: d.id, attributes: { q__t__score: [[0, 3, i / 10]] } })));
  await buildIndex(root);
}

const recipe = (exclude: string, extra = ''): string => `streams:
  - name: s
    documents: [documents/*.gz]
    attributes: [q]
    output: {path: out/s}
    filter:
      exclude:
        - "${exclude}"
${extra}`;

describe('PreviewEngine: bad input', () => {
  it('a YAML syntax error and a bad rule surface as RecipeErrors with line and column', async () => {
    const root = scratchDir();
    await small(root);
    const e = PreviewEngine.open(root);
    try {
      const syntax = (): unknown => e.preview('streams:\n  - name: [unclosed\n', { recipePath: 'r.yaml' });
      expect(syntax).toThrow(RecipeError);
      try {
        syntax();
      } catch (err) {
        const issue = (err as RecipeError).issues[0];
        expect(issue).toMatchObject({ field: '(syntax)' });
        expect(issue?.line).toBeGreaterThanOrEqual(2);
        expect(issue?.column).toBeGreaterThan(0);
        expect((err as Error).message).toMatch(/^r\.yaml:\d+: /);
      }
      let err: unknown;
      try {
        e.preview(recipe('$.attributes[?(@.q__t__score[0][2] <'), { recipePath: 'r.yaml' });
      } catch (x) {
        err = x;
      }
      expect(err).toBeInstanceOf(RecipeError);
      expect((err as RecipeError).issues[0]).toMatchObject({ field: 'streams[0].filter.exclude[0]', line: 8, column: 11 });
      expect((err as Error).message).toMatch(/r\.yaml:8: streams\[0\]\.filter\.exclude\[0\]: cannot compile/);
      // A glob matching nothing is located too.
      let err2: unknown;
      try {
        e.preview(recipe('$.id').replace('documents/*.gz', 'documents/*.nothing'));
      } catch (x) {
        err2 = x;
      }
      expect((err2 as RecipeError).issues[0]).toMatchObject({ field: 'streams[0].documents', line: 3 });
      expect(e.lint(recipe('$.attributes[?(@.a <'))).toEqual([expect.objectContaining({ severity: 'error', code: 'syntax', line: 8 })]);
    } finally {
      e.close();
    }
  });

  it('a missing dataset, a missing index and a dataset that changed under the index give clear messages', async () => {
    const root = scratchDir();
    expect(() => PreviewEngine.open(join(root, 'gone'))).toThrow(/dataset folder .*gone does not exist \(moved or deleted\?\)/);
    writeJsonl(join(root, 'documents/x.jsonl'), [{ id: 'a', text: 'b' }]);
    expect(() => PreviewEngine.open(root)).toThrow(/has no index yet .*assay index/);
    await small(root);
    // The index lives in the dataset and stores relative paths: a moved dataset keeps working.
    const moved = join(scratchDir(), 'moved');
    renameSync(root, moved);
    const e = PreviewEngine.open(moved);
    try {
      expect(e.preview(recipe('$.attributes[?(@.q__t__score[0][2] > 0.25)]')).total.kept.docs).toBe(3);
      expect(e.status().stale).toBe(false);
      renameSync(join(moved, 'documents/x.jsonl.gz'), join(moved, 'documents/y.jsonl.gz'));
      expect(e.status().stale).toBe(true);
      expect(() => e.document('d1')).toThrow(/x\.jsonl\.gz: is missing: the dataset changed \(or moved\) since it was indexed; re-run `assay index/);
    } finally {
      e.close();
    }
  });

  it('a reader keeps its snapshot while the index is rebuilt, and sees the new one after reload()', async () => {
    const root = scratchDir();
    await small(root);
    const e = PreviewEngine.open(root);
    try {
      const text = recipe('$.attributes[?(@.q__t__score[0][2] > 0.25)]');
      expect(e.preview(text).total.kept.docs).toBe(3);
      writeJsonl(join(root, 'attributes/q/x.jsonl.gz'), Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, attributes: { q__t__score: [[0, 3, 0.9]] } })));
      let during: number | undefined;
      await buildIndex(root, {
        // Inside the build's write transaction (not the search phase after it): a fresh reader still sees the committed index.
        onProgress: (p) => {
          if (p.phase !== 'index') return;
          const other = PreviewEngine.open(root);
          during = other.preview(text).total.kept.docs;
          other.close();
        },
      });
      expect(during).toBe(3);
      // The open engine keeps its snapshot, columns loaded later included, until reload().
      expect(e.preview(text).total.kept.docs).toBe(3);
      expect(e.histogram('q__t__score', 4).max).toBe(0.5);
      expect(e.status().stale).toBe(true);
      e.reload();
      expect(e.preview(text).total.kept.docs).toBe(0);
      expect(e.status().stale).toBe(false);
    } finally {
      e.close();
    }
  });

  it('an evaluation failure the mixer would hit fails the preview with the same message, one it would not reach does not', async () => {
    const root = scratchDir();
    await small(root);
    const e = PreviewEngine.open(root);
    try {
      const jq = (rules: string[]): string => `streams:
  - name: s
    documents: [documents/*.gz]
    attributes: [q]
    output: {path: out/s}
    filter:
      syntax: jq
      exclude: ${JSON.stringify(rules)}
`;
      expect(() => e.preview(jq(['.attributes.nope.x > 1']))).toThrow(/x\.jsonl\.gz:1: streams\[0\]\.filter\.exclude\[0\] `\.attributes\.nope\.x > 1` failed: cannot index null with "x"/);
      // An earlier exclude drops every document: the failing rule is never reached.
      expect(e.preview(jq(['.id != null', '.attributes.nope.x > 1'])).total.kept.docs).toBe(0);
    } finally {
      e.close();
    }
  });
});
