// Full-text search over the indexed texts: results equal a brute-force scan, combine with fate filters, highlight, resume.
import { appendFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemo } from '../../demo/build.js';
import { scratchDir, tempDir, writeJsonl } from '../../testing.js';
import { buildIndex, buildSearch, PreviewEngine, searchPath } from '../index.js';
import { parseSearch } from './query.js';

const { dir, cleanup } = tempDir('assay-search-');
const ws = join(dir, 'demo');
let engine: PreviewEngine;
let recipe: string;

beforeAll(async () => {
  await buildDemo({ out: ws, docs: 400, seed: 3, perFile: 150 });
  engine = PreviewEngine.open(ws);
  recipe = readFileSync(join(ws, 'recipes/demo.yaml'), 'utf8');
}, 120_000);
afterAll(() => {
  engine?.close();
  cleanup();
});

/** The brute force: unicode61's view of a text (letters, digits; Latin accents and case folded), searched term by term. */
const tokens = (s: string): string[] => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().split(/[^\p{L}\p{N}\p{Co}]+/u).filter(Boolean);
function bruteMatch(text: string, q: string): boolean {
  const t = tokens(text);
  return parseSearch(q).every((term) => {
    const want = tokens(term.text);
    if (want.length === 0) return true;
    for (let i = 0; i + want.length <= t.length; i++) {
      const ok = want.every((w, k) => (term.kind === 'prefix' && k === want.length - 1 ? (t[i + k] as string).startsWith(w) : t[i + k] === w));
      if (ok) return true;
    }
    return false;
  });
}

/** Every document of the demo, with its text and fate under the recipe (paged from the engine itself, without search). */
function everything(): { id: string; fate?: string; text: string }[] {
  const total = engine.documentsPage({ offset: 0, limit: 1, recipeText: recipe }).total;
  const rows: { id: string; fate?: string; text: string }[] = [];
  for (let offset = 0; offset < total; offset += 1000) {
    for (const r of engine.documentsPage({ offset, limit: 1000, recipeText: recipe }).rows) rows.push({ id: r.id, ...(r.fate ? { fate: r.fate } : {}), text: engine.document(r.id).text });
  }
  return rows;
}

describe('search', () => {
  const QUERIES = ['the', 'email', 'cookie*', '"privacy policy"', 'javascript enabled', 'lorem ipsum', 'Café', 'river town', 'AND', 'e-mail', '"of the"', 'zzzznotaword'];

  it('finds exactly the documents a brute-force scan of the texts finds, alone and with a fate filter', () => {
    const all = everything();
    expect(all.length).toBe(400);
    let nonEmpty = 0;
    for (const q of QUERIES) {
      const want = all.filter((d) => bruteMatch(d.text, q)).map((d) => d.id).sort();
      const page = engine.documentsPage({ offset: 0, limit: 1000, search: q });
      expect(page.rows.map((r) => r.id).sort(), q).toEqual(want);
      expect(page.total).toBe(want.length);
      if (want.length > 0) nonEmpty++;
      const dropped = engine.documentsPage({ offset: 0, limit: 1000, recipeText: recipe, fate: 'dropped', search: q });
      expect(dropped.rows.map((r) => r.id).sort(), `${q} + dropped`).toEqual(all.filter((d) => d.fate === 'dropped' && bruteMatch(d.text, q)).map((d) => d.id).sort());
      expect(dropped.rows.every((r) => r.fate === 'dropped')).toBe(true);
    }
    expect(nonEmpty).toBeGreaterThan(6);
  });

  it('sorts and pages searched rows like any other filter', () => {
    const q = 'the';
    const sorted = engine.documentsPage({ offset: 0, limit: 5, search: q, sort: { column: 'bytes', desc: true } });
    const bytes = engine.documentsPage({ offset: 0, limit: 1000, search: q }).rows.map((r) => r.bytes).sort((a, b) => b - a);
    expect(sorted.rows.map((r) => r.bytes)).toEqual(bytes.slice(0, 5));
  });

  it('documents.get returns the matched ranges (UTF-16) of words, phrases and prefixes', () => {
    const hit = engine.documentsPage({ offset: 0, limit: 1, search: '"social media" cookie*' }).rows[0];
    expect(hit).toBeDefined();
    const d = engine.document(hit!.id, { search: '"social media" cookie*' });
    expect(d.matches?.length).toBeGreaterThanOrEqual(2);
    const parts = (d.matches ?? []).map((m) => d.text.slice(m.start, m.end).toLowerCase());
    expect(parts).toContain('social media');
    expect(parts.some((p) => p.startsWith('cookie'))).toBe(true);
    expect(parts.every((p) => p === 'social media' || p.startsWith('cookie'))).toBe(true);
    expect(engine.document(hit!.id, { search: 'zzzznotaword' }).matches).toEqual([]);
    expect(engine.document(hit!.id).matches).toBeUndefined();
  });

  it('a query without words, and an index without its search table, fail with what to do', async () => {
    expect(() => engine.documentsPage({ offset: 0, limit: 1, search: '"" * --' })).toThrow(/has no word to look for/);
    const root = scratchDir();
    writeJsonl(join(root, 'documents/a.jsonl'), [{ id: 'a', text: 'alpha beta' }]);
    await buildIndex(root, { search: false });
    const e = PreviewEngine.open(root);
    try {
      expect(() => e.documentsPage({ offset: 0, limit: 1, search: 'alpha' })).toThrow(/has no search table .*build it with `assay index /);
    } finally {
      e.close();
    }
  });

  it('is incremental: unchanged files are skipped, a changed file is re-read, a removed one leaves search', async () => {
    const root = scratchDir();
    writeJsonl(join(root, 'documents/a.jsonl'), [{ id: 'a1', text: 'alpha beta' }, { id: 'a2', text: 'gamma' }]);
    writeJsonl(join(root, 'documents/b.jsonl'), [{ id: 'b1', text: 'alpha delta' }]);
    const first = await buildIndex(root);
    expect(first.search).toMatchObject({ docs: 3, files: 2, skippedFiles: 0 });
    const again = await buildIndex(root);
    expect(again.search).toMatchObject({ docs: 0, skippedFiles: 2 });
    appendFileSync(join(root, 'documents/b.jsonl'), `${JSON.stringify({ id: 'b2', text: 'epsilon alpha' })}\n`);
    rmSync(join(root, 'documents/a.jsonl'));
    const third = await buildIndex(root);
    expect(third.search).toMatchObject({ docs: 2, files: 1, skippedFiles: 0 });
    const e = PreviewEngine.open(root);
    try {
      expect(e.documentsPage({ offset: 0, limit: 10, search: 'alpha' }).rows.map((r) => r.id)).toEqual(['b1', 'b2']);
      expect(e.documentsPage({ offset: 0, limit: 10, search: 'gamma' }).total).toBe(0);
    } finally {
      e.close();
    }
    // Only the attribute index moved on: search says it is behind, and a search build catches it up.
    writeJsonl(join(root, 'documents/c.jsonl'), [{ id: 'c1', text: 'zeta' }]);
    await buildIndex(root, { search: false });
    const behind = PreviewEngine.open(root);
    try {
      expect(() => behind.documentsPage({ offset: 0, limit: 1, search: 'zeta' })).toThrow(/covers 1 of the 2 indexed files/);
    } finally {
      behind.close();
    }
    expect((await buildSearch(root)).docs).toBe(1);
    const caught = PreviewEngine.open(root);
    try {
      expect(caught.documentsPage({ offset: 0, limit: 1, search: 'zeta' }).rows[0]?.id).toBe('c1');
    } finally {
      caught.close();
    }
    expect(searchPath(root)).toMatch(/\.assay\/search$/);
  });

  it('writes its shards in parallel processes and finds the same documents as in one process', { timeout: 60_000 }, async () => {
    const root = scratchDir();
    for (let f = 0; f < 5; f++) writeJsonl(join(root, `documents/${f}.jsonl.gz`), Array.from({ length: 40 }, (_, i) => ({ id: `${f}-${i}`, text: `shard test file${f} doc${i} ${i % 3 ? 'odd' : 'even'}` })));
    await buildIndex(root, { search: false });
    const r = await buildSearch(root, { processes: 2 });
    expect(r).toMatchObject({ docs: 200, files: 5, skippedFiles: 0 });
    const e = PreviewEngine.open(root);
    try {
      expect(e.documentsPage({ offset: 0, limit: 1, search: 'shard' }).total).toBe(200);
      expect(e.documentsPage({ offset: 0, limit: 500, search: 'even file3' }).rows.map((x) => x.id)).toEqual(Array.from({ length: 40 }, (_, i) => i).filter((i) => i % 3 === 0).map((i) => `3-${i}`));
    } finally {
      e.close();
    }
  });

  it('a cancelled search build keeps the files it finished and resumes with the rest', async () => {
    const root = scratchDir();
    for (let f = 0; f < 4; f++) writeJsonl(join(root, `documents/${f}.jsonl`), Array.from({ length: 50 }, (_, i) => ({ id: `${f}-${i}`, text: `file${f} doc${i} common` })));
    await buildIndex(root, { search: false });
    const ac = new AbortController();
    await expect(buildSearch(root, { signal: ac.signal, onProgress: (p) => p.filesDone === 2 && ac.abort() })).rejects.toMatchObject({ code: 'CANCELLED' });
    const resumed = await buildSearch(root);
    expect(resumed).toMatchObject({ skippedFiles: 2, docs: 100 });
    const e = PreviewEngine.open(root);
    try {
      expect(e.documentsPage({ offset: 0, limit: 1, search: 'common' }).total).toBe(200);
    } finally {
      e.close();
    }
  });
});
