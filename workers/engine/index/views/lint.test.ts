// Lint against the index: each kind of problem is found, and a clean recipe has none.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from '../../testing.js';
import { buildIndex, PreviewEngine } from '../index.js';

const docs = Array.from({ length: 20 }, (_, i) => ({ id: `d${i}`, text: `text ${i}` }));
const { dir: root, cleanup } = tempDir('assay-lint-');
afterAll(cleanup);

beforeAll(async () => {
  writeJsonl(join(root, 'documents/x.jsonl'), docs);
  writeJsonl(join(root, 'attributes/a/x.jsonl'), docs.map((d, i) => ({ id: d.id, attributes: { a__t__score: [[0, 3, i / 20]], a__t__flag: i < 5 ? [[0, 3, 1]] : [] } })));
  writeJsonl(join(root, 'attributes/b/x.jsonl'), docs.map((d) => ({ id: d.id, attributes: { b__t__other: [[0, 1, 1]] } })));
  await buildIndex(root);
});

const recipe = (rules: string[], spans = ''): string => `streams:
  - name: s
    documents: [documents/*]
    attributes: [a]
    output: {path: out/s}
    filter:
      exclude:
${rules.map((r) => `        - "${r}"`).join('\n')}
${spans}`;

const guarded = (k: string, op: string, t: number): string => `$.attributes[?(@.${k} && @.${k}[0] && @.${k}[0][2] ${op} ${t})]`;

describe('lint', () => {
  it('finds missing keys (and the set that has them), rules dropping nothing or everything, shadowed rules, empty span selectors', () => {
    const e = PreviewEngine.open(root);
    try {
      const issues = e.lint(
        recipe(
          [
            guarded('a__t__score', '>', 0.5), // rule 0: fine
            guarded('b__t__other', '>', 0.5), // rule 1: set b is not merged
            guarded('gopher__gopher_v1__fraction_of_characters_in_most_common_2gram', '>', 0.2), // rule 2: no such key anywhere
            guarded('a__t__score', '>', 0.7), // rule 3: shadowed by rule 0
            guarded('a__t__score', '>=', 0), // rule 4: everything
          ],
          `    span_replacement:\n      - {span: $.attributes.a__t__flag, min_score: 2, replacement: ''}\n`,
        ),
      );
      const by = (code: string): { rule?: number; message: string; line?: number }[] => issues.filter((i) => i.code === code);
      expect(by('missing-key').map((i) => i.rule)).toEqual([1, 2]);
      expect(by('missing-key')[0]?.message).toMatch(/`b__t__other`.*it is in 'b', which the stream does not list/);
      expect(by('missing-key')[1]?.message).toMatch(/never match/);
      expect(by('drops-nothing').map((i) => i.rule)).toEqual([1, 2]);
      expect(by('shadowed')).toEqual([expect.objectContaining({ rule: 3, message: expect.stringMatching(/rule 0 alone covers them/) })]);
      expect(by('drops-everything').map((i) => i.rule)).toEqual([4]);
      expect(by('no-spans').map((i) => i.rule)).toEqual([5]);
      expect(issues.every((i) => i.severity === 'warning' && typeof i.line === 'number')).toBe(true);
      expect(e.lint(recipe([guarded('a__t__score', '>', 0.5)]))).toEqual([]);
    } finally {
      e.close();
    }
  });

  it('reports a recipe error as an error with its line', () => {
    const e = PreviewEngine.open(root);
    try {
      expect(e.lint(recipe(['$.attributes[?(@.x <'])).map((i) => [i.severity, i.code, i.line])).toEqual([['error', 'syntax', 8]]);
    } finally {
      e.close();
    }
  });
});
