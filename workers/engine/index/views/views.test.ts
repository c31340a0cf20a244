// Catalogue, histograms, samples, document pages and details read from the index.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, writeJsonl } from '../../testing.js';
import { buildIndex, PreviewEngine, SCHEMA_VERSION } from '../index.js';

const { dir: root, cleanup } = tempDir('assay-views-');
const N = 40;
const docs = Array.from({ length: N }, (_, i) => ({ id: `d${String(i).padStart(2, '0')}`, text: i === 3 ? '😀 emoji first, then more text' : `document ${i} ${'word '.repeat(i)}`, source: i % 4 === 0 ? 'books' : 'web', metadata: { url: `https://x/${i}` } }));
let engine: PreviewEngine;

beforeAll(async () => {
  writeJsonl(join(root, 'documents/a.jsonl'), docs.slice(0, 25));
  writeJsonl(join(root, 'documents/b.jsonl.gz'), docs.slice(25));
  const attrs = (d: (typeof docs)[number], i: number): Record<string, unknown> => ({ id: d.id, attributes: { q__t__score: [[0, 4, i / N]], q__t__pii: i % 5 === 0 ? [[2, 4, 1], [6, 8, 1]] : [] } });
  writeJsonl(join(root, 'attributes/q/a.jsonl'), docs.slice(0, 25).map((d, i) => attrs(d, i)));
  writeJsonl(join(root, 'attributes/q/b.jsonl.gz'), docs.slice(25).map((d, i) => attrs(d, i + 25)));
  await buildIndex(root);
  engine = PreviewEngine.open(root);
});
afterAll(() => {
  engine?.close();
  cleanup();
});

const recipe = `streams:
  - name: s
    documents: [documents/*]
    attributes: [q]
    output: {path: out/s}
    filter:
      exclude:
        - "$.attributes[?(@.q__t__score && @.q__t__score[0] && @.q__t__score[0][2] >= 0.5)]"
        - "$.attributes[?(@.q__t__score && @.q__t__score[0] && @.q__t__score[0][2] >= 0.75)]"
`;

describe('index views', () => {
  it('status, files, sources and the catalogue describe the index', () => {
    expect(engine.status()).toMatchObject({ built: true, docs: N, stale: false, schemaVersion: SCHEMA_VERSION });
    expect(engine.files()).toEqual([expect.objectContaining({ path: 'documents/a.jsonl', docs: 25 }), expect.objectContaining({ path: 'documents/b.jsonl.gz', docs: 15 })]);
    expect(engine.sources().map((s) => [s.source, s.docs, s.files])).toEqual([['books', 10, 2], ['web', 30, 2]]);
    const cat = engine.catalogue();
    expect(cat.map((k) => [k.key, k.kind, k.docs, k.spans])).toEqual([['q__t__pii', 'spans', N, 16], ['q__t__score', 'document', N, N]]);
    expect(cat[1]).toMatchObject({ min: 0, max: 39 / N, quantiles: expect.arrayContaining([{ p: 0.5, value: 19 / N }]) });
  });

  it('histograms count every document with a value, edges ascending, the last bin closed', () => {
    const h = engine.histogram('q/q__t__score', 4);
    expect(h).toMatchObject({ present: N, total: N, min: 0, max: 39 / N });
    expect(h.edges).toHaveLength(5);
    expect(h.counts.reduce((a, b) => a + b, 0)).toBe(N);
    expect(h.counts).toEqual([10, 10, 10, 10]);
    expect(() => engine.histogram('nope', 3)).toThrow(/no attribute key 'nope'/);
  });

  it('sample buckets hold exactly what the preview counts', () => {
    const p = engine.preview(recipe);
    for (const rule of p.rules) {
      for (const bucket of ['alone', 'exclusive', 'sequential'] as const) {
        const s = engine.samples(recipe, rule.index, bucket, 0, 1000);
        expect(s.total).toBe(rule[bucket].docs);
        expect(s.ids).toHaveLength(rule[bucket].docs);
      }
    }
    const kept = engine.samples(recipe, -1, 'kept', 5, 3);
    expect(kept).toEqual({ ids: ['d05', 'd06', 'd07'], total: 20, bucket: 'kept' });
    expect(p.rules[1]).toMatchObject({ alone: { docs: 10 }, exclusive: { docs: 0 }, sequential: { docs: 0 } });
    expect(p.rules[0]).toMatchObject({ alone: { docs: 20 }, exclusive: { docs: 10 }, sequential: { docs: 20 } });
  });

  it('a bucket filter pages exactly the documents preview.samples lists, combined with the other filters', () => {
    const p = engine.preview(recipe);
    for (const [rule, bucket] of [...p.rules.flatMap((r) => (['alone', 'exclusive', 'sequential'] as const).map((b) => [r.index, b] as const)), [-1, 'kept'] as const]) {
      const want = engine.samples(recipe, rule, bucket, 0, 1000);
      const page = engine.documentsPage({ offset: 0, limit: 1000, recipeText: recipe, bucket: { rule, bucket } });
      expect(page.total, `${rule} ${bucket}`).toBe(want.total);
      expect(page.rows.map((r) => r.id)).toEqual(want.ids);
    }
    // Rule 1 alone drops scores ≥ 0.75 (d30…d39); the books among them are d32 and d36.
    const books = engine.documentsPage({ offset: 0, limit: 100, recipeText: recipe, bucket: { rule: 1, bucket: 'alone' }, source: 'books' });
    expect(books.rows.map((r) => [r.id, r.fate, r.droppedBy])).toEqual([['d32', 'dropped', 0], ['d36', 'dropped', 0]]);
    expect(() => engine.documentsPage({ offset: 0, limit: 5, bucket: { rule: 0, bucket: 'alone' } })).toThrow(/needs recipeText/);
    expect(() => engine.documentsPage({ offset: 0, limit: 5, recipeText: recipe, bucket: { rule: 9, bucket: 'alone' } })).toThrow(/has no rule 9/);
    expect(() => engine.documentsPage({ offset: 0, limit: 5, recipeText: recipe, bucket: { rule: -1, bucket: 'alone' } })).toThrow(/bucket must be 'kept'/);
  });

  it('document pages filter by fate, source and attribute ranges, sort, and show fates and values', () => {
    const page = engine.documentsPage({ offset: 0, limit: 5, recipeText: recipe, fate: 'dropped', source: 'books', sort: { column: 'q__t__score', desc: true }, columns: ['q__t__score'] });
    expect(page.total).toBe(5);
    expect(page.rows.map((r) => [r.id, r.fate, r.droppedBy, r.values.q__t__score])).toEqual([
      ['d36', 'dropped', 0, 36 / N], ['d32', 'dropped', 0, 32 / N], ['d28', 'dropped', 0, 28 / N], ['d24', 'dropped', 0, 24 / N], ['d20', 'dropped', 0, 20 / N],
    ]);
    const ranged = engine.documentsPage({ offset: 2, limit: 2, ranges: [{ key: 'q__t__score', min: 0.1, max: 0.2 }], sort: { column: 'id', desc: false } });
    expect(ranged).toMatchObject({ total: 5, offset: 2, rows: [{ id: 'd06', file: 'documents/a.jsonl', line: 7 }, { id: 'd07' }] });
    expect(ranged.rows[0]?.snippet).toBe(docs[6]?.text);
    const byIds = engine.documentsPage({ offset: 0, limit: 10, ids: ['d30', 'missing', 'd01'] });
    expect(byIds.rows.map((r) => r.id)).toEqual(['d01', 'd30']);
  });

  it('a document shows its text, metadata, spans in UTF-16 offsets, and document-level values', () => {
    const d = engine.document('d03');
    expect(d).toMatchObject({ id: 'd03', source: 'web', file: 'documents/a.jsonl', line: 4, metadata: { url: 'https://x/3' }, values: { q__t__score: 3 / N } });
    const d0 = engine.document('d00');
    // Code points 2..4 of "😀 emoji…" would be UTF-16 3..5; in d00 (no astral characters) they stay 2..4.
    expect(d0.spans.filter((s) => s.key === 'q__t__pii')).toEqual([{ set: 'q', key: 'q__t__pii', start: 2, end: 4, score: 1 }, { set: 'q', key: 'q__t__pii', start: 6, end: 8, score: 1 }]);
    expect(engine.document('d03').spans.find((s) => s.key === 'q__t__score')).toEqual({ set: 'q', key: 'q__t__score', start: 0, end: 5, score: 3 / N });
    expect(() => engine.document('zz')).toThrow(/no document with id "zz"/);
  });
});
