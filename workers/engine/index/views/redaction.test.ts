// The `redacted` document filter keeps exactly the kept documents whose explained output differs from their text.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainResult } from '../../../../shared/contract/preview.js';
import { rng, tempDir, writeJsonl } from '../../testing.js';
import { buildIndex, PreviewEngine } from '../index.js';
import { randomRecipe } from '../recipe-grammar.js';
import { indexedDataset, ODD_SET, TAGGED_SETS } from '../test-dataset.js';

type Spans = [number, number, number][];

/** Hand-made cases: each text and the spans its rules replace (a: deleted, b: 'XXX', c: `{}`), and whether rule 0 drops it. */
const CASES: { text: string; a?: Spans; b?: Spans; c?: Spans; drop?: boolean }[] = [
  { text: 'hello world', a: [[0, 6, 1]] }, // shorter output
  { text: 'abc def', b: [[0, 3, 1]] }, // same length, different text: decided on the text
  { text: 'XXX def', b: [[0, 3, 1]] }, // same length, same text: replaced, yet unchanged
  { text: 'keep me', c: [[0, 4, 1]] }, // `{}` replaces a span by itself
  { text: 'drop me', a: [[0, 4, 1]], drop: true },
  { text: 'plain text' },
  { text: 'both here ok', a: [[0, 5, 1]], c: [[5, 9, 1]] },
  { text: 'abcdef', a: [[2, 2, 1]] }, // Dolma's zero-width span
  { text: 'short', b: [[10, 13, 1]] }, // a span past the end
  { text: '😀 abc', b: [[2, 5, 1]] }, // same length in code points, astral text
  { text: 'dropped too', b: [[0, 3, 1]], drop: true },
  { text: 'x', a: [[0, 1, 0.2]] }, // below min_score: untouched
];

const recipe = (minLength: number): string => `streams:
  - name: s
    documents: [documents/*]
    attributes: [r]
    output: {path: out/s${minLength ? `, min_text_length: ${minLength}` : ''}}
    filter:
      exclude:
        - "$.attributes[?(@.r__t__drop && @.r__t__drop[0] && @.r__t__drop[0][2] >= 0.5)]"
    span_replacement:
      - {span: "$.attributes.r__t__a", min_score: 0.5, replacement: ""}
      - {span: "$.attributes.r__t__b", min_score: 0, replacement: "XXX"}
      - {span: "$.attributes.r__t__c", max_score: 2, replacement: "{}"}
`;

/** What the explanation says: redacted when the output differs, by the rules that replaced characters (else any that had a span). */
function expected(e: ExplainResult): number[] | undefined {
  if (e.fate !== 'kept' || e.output === e.text) return undefined;
  const wide = [...new Set(e.replaced.filter((r) => r.end > r.start).map((r) => r.rule))];
  return (wide.length > 0 ? wide : [...new Set(e.replaced.map((r) => r.rule))]).sort((x, y) => x - y);
}

/** Explains every kept document (only those can be redacted) and compares the pages with what it says. */
function checkAgainstExplain(engine: PreviewEngine, text: string): { redacted: number; kept: number } {
  const want = new Map<string, number[]>();
  const keptIds = engine.samples(text, -1, 'kept', 0, 1000).ids;
  const kept = keptIds.length;
  for (const id of keptIds) {
    const e = engine.explain(text, id);
    expect(e.fate).toBe('kept');
    const by = expected(e);
    if (by !== undefined) want.set(id, by);
  }
  const page = engine.documentsPage({ offset: 0, limit: 1000, recipeText: text, redacted: true });
  expect(page.total).toBe(want.size);
  expect(new Map(page.rows.map((r) => [r.id, r.redactedBy]))).toEqual(want);
  for (const r of page.rows) expect(r.fate).toBe('kept');
  // Rows of every fate carry redactedBy exactly when they are redacted.
  const all = engine.documentsPage({ offset: 0, limit: 1000, recipeText: text });
  for (const r of all.rows) expect(r.redactedBy, r.id).toEqual(want.get(r.id));
  const unchanged = engine.documentsPage({ offset: 0, limit: 1000, recipeText: text, fate: 'kept', redacted: false });
  expect(unchanged.total).toBe(kept - want.size);
  return { redacted: want.size, kept };
}

describe('redacted documents (hand-made cases)', () => {
  const { dir: root, cleanup } = tempDir('assay-redact-');
  const ids = CASES.map((_, i) => `r${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    writeJsonl(join(root, 'documents/x.jsonl'), CASES.map((c, i) => ({ id: ids[i], text: c.text })));
    const attrs = CASES.map((c, i) => ({
      id: ids[i],
      attributes: { r__t__a: c.a ?? [], r__t__b: c.b ?? [], r__t__c: c.c ?? [], r__t__drop: [[0, 1, c.drop ? 1 : 0]] },
    }));
    writeJsonl(join(root, 'attributes/r/x.jsonl'), attrs);
    await buildIndex(root);
  });
  afterAll(cleanup);

  // min_text_length measures the replaced text first (which settles `changed` on the way); without it
  // `changed` reads the same-length documents itself. A fresh engine each time keeps the orders apart.
  for (const minLength of [3, 0]) {
    it(`matches explain() on every document${minLength ? ' with min_text_length' : ''}`, () => {
      const engine = PreviewEngine.open(root);
      try {
        const text = recipe(minLength);
        const { redacted } = checkAgainstExplain(engine, text);
        // The cases reach every path: a length change, a same-length change, and replaced-but-unchanged.
        const rows = engine.documentsPage({ offset: 0, limit: 100, recipeText: text, redacted: true }).rows.map((r) => r.id);
        expect(rows).toEqual(expect.arrayContaining(['r00', 'r01', 'r09']));
        expect(rows).not.toContain('r02');
        expect(rows).not.toContain('r03');
        expect(redacted).toBeGreaterThanOrEqual(4);
        // Per rule: the filter lists the rows naming it.
        for (const rule of [1, 2, 3]) {
          const byRule = engine.documentsPage({ offset: 0, limit: 100, recipeText: text, redactedBy: rule });
          const naming = engine.documentsPage({ offset: 0, limit: 100, recipeText: text, redacted: true }).rows.filter((r) => r.redactedBy?.includes(rule));
          expect(byRule.rows.map((r) => r.id)).toEqual(naming.map((r) => r.id));
        }
        expect(() => engine.documentsPage({ offset: 0, limit: 10, redacted: true })).toThrow(/needs recipeText/);
      } finally {
        engine.close();
      }
    });
  }
});

describe('redacted documents (random recipes on tagged data)', () => {
  const ds = indexedDataset('assay-redact-rand-');

  it('every previewable random recipe: redacted = kept documents whose output differs from their text', () => {
    const engine = ds.engine();
    const r = rng(77);
    const catalogue = engine.catalogue();
    let checked = 0;
    let redacted = 0;
    for (let n = 0; checked < 20 && n < 80; n++) {
      const recipe = randomRecipe(r, n, { sets: [...TAGGED_SETS, ODD_SET], partialSets: [ODD_SET], catalogue });
      try {
        engine.preview(recipe.text);
      } catch {
        continue; // recipes the mixer would fail on have no output to compare
      }
      redacted += checkAgainstExplain(engine, recipe.text).redacted;
      checked++;
    }
    expect(checked).toBe(20);
    expect(redacted).toBeGreaterThan(0);
  });
});
