// Column blobs of schema 3 (delta-coded ordinals, first span scores only as nums) are smaller, and indexes of schema 2 keep working and upgrade in place.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rng, tempDir, writeJsonl } from '../../testing.js';
import { buildIndex, indexPath, PreviewEngine, SCHEMA_VERSION } from '../index.js';
import { randomRecipe } from '../recipe-grammar.js';
import { makeDataset, ODD_SET, TAGGED_SETS } from '../test-dataset.js';
import { openDatabase, schemaVersionOf, setMeta } from './db.js';
import { pack, unpack } from './pack.js';
import { T } from './tags.js';

/** Rewrites every column blob of the index at `root` as schema 2 wrote it (every score in `scores`, plain ordinals); returns the bytes before and after. */
function downgrade(root: string): { before: number; after: number } {
  const db = openDatabase(indexPath(root));
  const rows = db.prepare('SELECT set_name, path, file, data FROM columns').all() as { set_name: string; path: string; file: number; data: Buffer }[];
  const update = db.prepare('UPDATE columns SET data = ? WHERE set_name = ? AND path = ? AND file = ?');
  let before = 0;
  let after = 0;
  db.transaction(() => {
    for (const r of rows) {
      const p = unpack(r.data);
      const [tags, nums, counts, later] = [p.u8('tags'), p.f64('nums'), p.u32('counts'), p.f64('laterScores')];
      const scores: number[] = [];
      let l = 0;
      for (let j = 0; j < tags.length; j++) {
        if (tags[j] !== T.SPANS) continue;
        scores.push(nums[j] as number);
        for (let i = 1; i < (counts[j] as number); i++) scores.push(later[l++] as number);
      }
      expect(l).toBe(later.length);
      const old = pack({ ords: p.u32('ords'), tags, nums, counts, starts: p.u32('starts'), ends: p.u32('ends'), scores: Float64Array.from(scores) });
      before += r.data.length;
      after += old.length;
      update.run(old, r.set_name, r.path, r.file);
    }
    // Schema 2's docs rows also held line, source, bytes, chars and tokens.
    for (const c of ['line', 'source', 'bytes', 'chars', 'tokens']) db.exec(`ALTER TABLE docs ADD COLUMN ${c} ${c === 'source' ? 'TEXT' : 'INTEGER'} NOT NULL DEFAULT ${c === 'source' ? "''" : 0}`);
    const fill = db.prepare('UPDATE docs SET line = ?, source = ?, bytes = ?, chars = ?, tokens = ? WHERE file = ? AND ord = ?');
    for (const r of db.prepare('SELECT id, data, sources FROM files').all() as { id: number; data: Buffer; sources: string }[]) {
      const p = unpack(r.data);
      const [codes, bytes, chars, tokens, names] = [p.u32('sourceCodes'), p.u32('bytes'), p.u32('chars'), p.u32('tokens'), JSON.parse(r.sources) as string[]];
      for (let i = 0; i < codes.length; i++) fill.run(i + 1, names[codes[i] as number], bytes[i], chars[i], tokens[i], r.id, i);
    }
    setMeta(db, 'schema_version', '2');
  })();
  db.close();
  return { before, after };
}

function layouts(root: string): { old: number; now: number } {
  const db = openDatabase(indexPath(root), { readonly: true });
  const blobs = db.prepare('SELECT data FROM columns').pluck().all() as Buffer[];
  db.close();
  const old = blobs.filter((b) => unpack(b).has('scores')).length;
  return { old, now: blobs.length - old };
}

/** Random recipes (spans replaced, irregular span lists among them): counts, kept documents, explained outputs, or the error. */
function answers(root: string, seed: number, recipes: number): unknown[] {
  const engine = PreviewEngine.open(root);
  try {
    const r = rng(seed);
    const catalogue = engine.catalogue();
    const out: unknown[] = [catalogue];
    for (let n = 0; n < recipes; n++) {
      const recipe = randomRecipe(r, n, { sets: [...TAGGED_SETS, ODD_SET], partialSets: [ODD_SET], catalogue, sampling: false });
      try {
        const p = engine.preview(recipe.text, { ids: true });
        const explained = (p.keptIds ?? []).slice(0, 8).map((id) => engine.explain(recipe.text, id));
        out.push({ recipe: recipe.text, kept: p.keptIds, rules: p.rules, explained });
      } catch (e) {
        out.push({ recipe: recipe.text, error: (e as Error).message });
      }
    }
    return out;
  } finally {
    engine.close();
  }
}

const explainedCount = (xs: unknown[]): number => xs.reduce<number>((a, x) => a + ((x as { explained?: unknown[] }).explained?.length ?? 0), 0);

describe('column blob layouts', () => {
  const { dir: root, cleanup } = tempDir('assay-layout-');
  beforeAll(async () => {
    await makeDataset(root);
    await buildIndex(root, { search: false });
  }, 120_000);
  afterAll(cleanup);

  it('an index of schema 2 (blobs as it wrote them, 10% larger even at 160 documents) answers exactly as schema 3', () => {
    const fresh = answers(root, 31, 40);
    expect(explainedCount(fresh)).toBeGreaterThan(40);
    expect(layouts(root)).toMatchObject({ old: 0 });
    const sizes = downgrade(root);
    // (The blobs' headers weigh at this size; at 10^7 documents the columns shrink 2.4×.)
    expect(sizes.before).toBeLessThan(sizes.after * 0.9);
    expect(layouts(root)).toMatchObject({ now: 0 });
    expect(answers(root, 31, 40)).toEqual(fresh);
  }, 120_000);

  it('a build over a schema 2 index upgrades it in place: unchanged files keep their blobs, new files get the new ones', async () => {
    writeJsonl(join(root, 'documents/more.jsonl.gz'), [{ id: 'x1', text: 'one more document here. It has two lines\nand no end', source: 'web' }]);
    writeJsonl(join(root, 'attributes', ODD_SET, 'more.jsonl.gz'), [{ id: 'x1', attributes: { odd__spans: [[0, 3, 0.5], [4, 8, 0.25], [9, 12, 1]], odd__n: 2 } }]);
    for (const set of TAGGED_SETS) writeJsonl(join(root, 'attributes', set, 'more.jsonl.gz'), [{ id: 'x1', attributes: {} }]);
    const notes: string[] = [];
    const r = await buildIndex(root, { search: false, log: (l) => notes.push(l) });
    expect(notes).toEqual([]);
    expect(r.skippedFiles).toBe(3);
    const db = openDatabase(indexPath(root), { readonly: true });
    expect(schemaVersionOf(db)).toBe(SCHEMA_VERSION);
    expect((db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('docs') as string[]).sort()).toEqual(['file', 'id', 'id_json', 'ord']);
    db.close();
    const mixed = layouts(root);
    expect(mixed.old).toBeGreaterThan(0);
    expect(mixed.now).toBeGreaterThan(0);
    const upgraded = answers(root, 32, 30);
    rmSync(join(root, '.assay'), { recursive: true });
    await buildIndex(root, { search: false });
    expect(layouts(root)).toMatchObject({ old: 0 });
    expect(upgraded).toEqual(answers(root, 32, 30));
  }, 120_000);
});
