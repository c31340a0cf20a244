// Index build: what is indexed, incremental re-indexing, Assay's own folders, schema changes and bad files.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../../testing.js';
import { buildIndex, indexPath, PreviewEngine, SCHEMA_VERSION } from '../index.js';
import { openDatabase, setMeta } from '../store/db.js';

const doc = (id: string, text: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({ id, text, source: 'web', ...extra });

function dataset(root: string): void {
  writeJsonl(join(root, 'documents/a.jsonl.gz'), [doc('a1', 'hello world'), doc('a2', '  héllo 😀 ', { metadata: { length: 3 } })]);
  writeJsonl(join(root, 'documents/sub/b.jsonl'), [doc('b1', 'x'), doc('b2', 'yy'), doc('b3', 'zzz')]);
  writeJsonl(join(root, 'attributes/s1/a.jsonl.gz'), [{ id: 'a1', attributes: { k: [[0, 5, 0.5]] } }, { id: 'a2', attributes: { k: [[0, 2, 0.9]] } }]);
  writeJsonl(join(root, 'attributes/s1/sub/b.jsonl'), ['b1', 'b2', 'b3'].map((id, i) => ({ id, attributes: { k: [[0, 1, i / 10]] } })));
}

const fileIds = (root: string): Record<string, number> => {
  const db = openDatabase(indexPath(root), { readonly: true });
  try {
    return Object.fromEntries((db.prepare('SELECT path, id FROM files').all() as { path: string; id: number }[]).map((r) => [r.path, r.id]));
  } finally {
    db.close();
  }
};

describe('buildIndex', () => {
  it('indexes documents and attribute sets, never Assay\'s own folders or partial files', async () => {
    const root = scratchDir();
    dataset(root);
    writeJsonl(join(root, 'documents/.assay/junk.jsonl'), [doc('j', 'junk')]);
    writeJsonl(join(root, 'documents/c.jsonl.tmp'), [doc('t', 'partial')]);
    mkdirSync(join(root, 'attributes/s1/.assay-done'), { recursive: true });
    writeFileSync(join(root, 'attributes/s1/.assay-done/a.jsonl.gz.json'), '{}');
    const progress: number[] = [];
    const r = await buildIndex(root, { onProgress: (p) => progress.push(p.done) });
    expect(r).toMatchObject({ docs: 5, files: 2, skippedFiles: 0, attributeSets: 1 });
    expect(progress.at(-1)).toBeGreaterThan(0);
    // A first build is written without a log, then set to write-ahead logging for the builds and readers after it.
    const db = openDatabase(indexPath(root), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
    const e = PreviewEngine.open(root);
    try {
      expect(e.files().map((f) => f.path)).toEqual(['documents/a.jsonl.gz', 'documents/sub/b.jsonl']);
      expect(e.catalogue().map((k) => `${k.set}/${k.key}:${k.docs}`)).toEqual(['s1/k:5']);
      expect(e.document('a2')).toMatchObject({ text: '  héllo 😀 ', metadata: { length: 3 }, values: { k: 0.9 } });
    } finally {
      e.close();
    }
  });

  it('re-indexes incrementally: unchanged files are skipped, a touched file is recognised by its hash, a changed set alone is re-read', async () => {
    const root = scratchDir();
    dataset(root);
    await buildIndex(root);
    const before = fileIds(root);
    expect(await buildIndex(root)).toMatchObject({ docs: 5, skippedFiles: 2 });
    // Same bytes, new mtime: hashed, found equal, not re-read.
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'documents/sub/b.jsonl'), future, future);
    expect(await buildIndex(root)).toMatchObject({ skippedFiles: 2 });
    // A changed attribute file and a new set: the documents stay as indexed (same file rows).
    writeJsonl(join(root, 'attributes/s1/sub/b.jsonl'), ['b1', 'b2', 'b3'].map((id) => ({ id, attributes: { k: [[0, 1, 0.99]] } })));
    writeJsonl(join(root, 'attributes/s2/a.jsonl.gz'), [{ id: 'a1', attributes: { q: 1 } }, { id: 'a2', attributes: { q: 2 } }]);
    expect(await buildIndex(root)).toMatchObject({ skippedFiles: 2, attributeSets: 2 });
    expect(fileIds(root)).toEqual(before);
    const e = PreviewEngine.open(root);
    try {
      expect(e.histogram('k', 2)).toMatchObject({ present: 5, max: 0.99 });
      expect(e.catalogue().map((k) => `${k.set}/${k.key}:${k.docs}`)).toEqual(['s1/k:5', 's2/q:2']);
    } finally {
      e.close();
    }
    // A changed documents file is re-read whole; a deleted one disappears with its attributes.
    writeJsonl(join(root, 'documents/a.jsonl.gz'), [doc('a1', 'changed'), doc('a2', 'also changed'), doc('a3', 'new')]);
    writeJsonl(join(root, 'attributes/s1/a.jsonl.gz'), ['a1', 'a2', 'a3'].map((id) => ({ id, attributes: { k: [[0, 1, 0.5]] } })));
    writeJsonl(join(root, 'attributes/s2/a.jsonl.gz'), ['a1', 'a2', 'a3'].map((id) => ({ id, attributes: { q: 3 } })));
    expect(await buildIndex(root)).toMatchObject({ docs: 6, skippedFiles: 1 });
    const { rmSync } = await import('node:fs');
    rmSync(join(root, 'documents/sub'), { recursive: true });
    expect(await buildIndex(root)).toMatchObject({ docs: 3, files: 1 });
  });

  it('reading files in a pool of processes gives the same index as reading them here', async () => {
    const a = scratchDir();
    const b = scratchDir();
    dataset(a);
    dataset(b);
    await buildIndex(a, { processes: 1 });
    expect(await buildIndex(b, { processes: 2 })).toMatchObject({ docs: 5, files: 2 });
    const [x, y] = [PreviewEngine.open(a), PreviewEngine.open(b)];
    try {
      expect(y.catalogue()).toEqual(x.catalogue());
      expect(y.document('b2')).toEqual(x.document('b2'));
      expect(y.histogram('k', 3)).toEqual(x.histogram('k', 3));
    } finally {
      x.close();
      y.close();
    }
  });

  it('rebuilds an index of another schema (or a file that is not an index), saying so', async () => {
    const root = scratchDir();
    dataset(root);
    await buildIndex(root);
    const db = openDatabase(indexPath(root));
    const other = SCHEMA_VERSION + 7;
    setMeta(db, 'schema_version', String(other));
    db.close();
    expect(() => PreviewEngine.open(root)).toThrow(new RegExp(`another version of Assay \\(schema ${other}; this one reads ${SCHEMA_VERSION}\\).*assay index`));
    const notes: string[] = [];
    expect(await buildIndex(root, { log: (l) => notes.push(l) })).toMatchObject({ docs: 5, skippedFiles: 0 });
    expect(notes.join('\n')).toMatch(new RegExp(`schema ${other}\\); rebuilding it for schema ${SCHEMA_VERSION}`));
    PreviewEngine.open(root).close();

    writeFileSync(indexPath(root), 'this is not sqlite at all, just text '.repeat(200));
    for (const s of ['-wal', '-shm']) writeFileSync(indexPath(root) + s, '');
    const notes2: string[] = [];
    expect(await buildIndex(root, { log: (l) => notes2.push(l) })).toMatchObject({ docs: 5 });
    expect(notes2.join('\n')).toMatch(/not a readable index/);
  });

  it('records files the mixer would refuse instead of failing the whole index', async () => {
    const root = scratchDir();
    dataset(root);
    writeJsonl(join(root, 'documents/bad.jsonl'), [JSON.stringify(doc('c1', 'ok')), '{"id": "c2", "text": ']);
    writeJsonl(join(root, 'attributes/s1/bad.jsonl'), [{ id: 'c1', attributes: {} }, { id: 'WRONG', attributes: {} }]);
    const notes: string[] = [];
    const r = await buildIndex(root, { log: (l) => notes.push(l) });
    expect(r.docs).toBe(6);
    expect(r.problems?.join('\n')).toMatch(/bad\.jsonl:2: malformed JSON/);
    expect(notes.join('\n')).toMatch(/cannot be mixed/);
  });

  it('refuses a folder that is not a dataset, with a clear message', async () => {
    const root = scratchDir();
    await expect(buildIndex(join(root, 'nope'))).rejects.toThrow(/does not exist \(moved or deleted\?\)/);
    await expect(buildIndex(root)).rejects.toThrow(/has no documents\/ folder/);
  });

  it('can be cancelled, leaving the previous index as it was', async () => {
    const root = scratchDir();
    dataset(root);
    await buildIndex(root);
    writeJsonl(join(root, 'documents/more.jsonl'), [doc('m1', 'more')]);
    const ac = new AbortController();
    ac.abort();
    await expect(buildIndex(root, { signal: ac.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    const e = PreviewEngine.open(root);
    expect(e.status().docs).toBe(5);
    e.close();
  });
});
