// Dolma's deduper fixtures D1–D5 (conformance README), each in a fresh copy of the fixture folder.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readJsonlFile } from '../../testing.js';
import { runDedupe } from '../index.js';
import { DOLMA, parseConfig, readFixtureConfig, scratchWithFixture, type Row } from '../test-helpers.js';


async function run(configName: string): Promise<{ dir: string; rows: (name: string) => Row[] }> {
  const t = scratchWithFixture();
  await runDedupe(parseConfig(readFixtureConfig(configName)), { cwd: t.dir });
  return { dir: t.dir, rows: (name) => readJsonlFile(join(t.dir, 'deduper/attributes', name, '000.json.gz')) as Row[] };
}

const expected = (name: string): Row[] => readJsonlFile(join(DOLMA, 'deduper/expected', name)) as Row[];

describe('Dolma deduper conformance', () => {
  it('D1: document dedupe by $.metadata.url — span end is the URL byte length, non-duplicates get no key', async () => {
    const r = await run('dedupe-by-url.json');
    expect(r.rows('dedupe_by_url')).toEqual(expected('dedupe-by-url.json.gz'));
    // Dolma's row format: serde_json, keys sorted, compact, no source.
    const first = gunzipSync(readFileSync(join(r.dir, 'deduper/attributes/dedupe_by_url/000.json.gz'))).toString().split('\n')[1];
    expect(first).toBe('{"attributes":{"bff_duplicate_url":[[0,44,1]]},"id":"http://advocatesaz.org/tag/good-cholesterol/"}');
  });

  it('D2: exact paragraph dedupe — 43 spans in doc 2, every row has the key', async () => {
    const r = await run('dedupe-paragraphs.json');
    const rows = r.rows('dedupe_paragraphs');
    expect(rows).toEqual(expected('dedupe-paragraphs.json.gz'));
    expect(rows[1]?.attributes.bff_duplicate_paragraph_spans).toHaveLength(43);
  });

  it('D3: n-gram paragraph dedupe — every expected span, plus only the two documented extra 0.5 spans', async () => {
    const r = await run('dedupe-paragraph-ngrams.json');
    const rows = r.rows('dedupe_paragraph_ngrams');
    const want = expected('dedupe-paragraph-ngrams.json.gz');
    expect(rows).toHaveLength(want.length);
    const extras: [number, unknown][] = [];
    rows.forEach((row, i) => {
      const w = want[i] as Row;
      expect(row.id).toEqual(w.id);
      expect(Object.keys(row.attributes).sort()).toEqual(Object.keys(w.attributes).sort());
      const got = row.attributes.bff_duplicate_paragraph_spans ?? [];
      const exp = w.attributes.bff_duplicate_paragraph_spans ?? [];
      for (const span of exp) expect(got).toContainEqual(span);
      for (const span of got) if (!exp.some((e) => JSON.stringify(e) === JSON.stringify(span))) extras.push([i, span]);
    });
    expect(rows[7]?.attributes.bff_duplicate_paragraph_spans).toEqual([[3207, 3907, 0.8684210777282715]]);
    // The README's caveat: a faithful port also emits these (the expected file is likely stale there).
    expect(extras).toEqual([
      [2, [2174, 2246, 0.5]],
      [9, [1768, 1833, 0.5]],
    ]);
  });

  it('D4: a documents path without a "documents" component is a configuration error', async () => {
    const t = scratchWithFixture();
    const p = runDedupe(parseConfig(readFixtureConfig('filepath-bad.json')), { cwd: t.dir });
    await expect(p).rejects.toMatchObject({ name: 'AssayError', code: 'CONFIG', field: 'documents[0]' });
    await expect(p).rejects.toThrow(/document_dir/);
    expect(existsSync(join(t.dir, 'deduper/attributes'))).toBe(false);
    expect(existsSync(join(t.dir, 'work/para_bloom_filter.bin'))).toBe(false);
  });

  it('D5: dedupe.document_dir names the directory to map to attributes/', async () => {
    const r = await run('filepath-good.json');
    const rows = r.rows('dedupe_paragraph_ngrams');
    expect(rows).toHaveLength(10);
    expect(rows.every((row) => Array.isArray(row.attributes.bff_duplicate_paragraph_spans))).toBe(true);
    expect(existsSync(join(r.dir, 'work/para_bloom_filter.bin'))).toBe(true);
  });
});
