// The index's run manifest: every indexed file with its true sha256, kept across incremental builds, changed with the bytes.
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../manifest/read.js';
import { indexManifestPath } from '../../manifest/schema.js';
import { scratchDir, writeJsonl } from '../../testing.js';
import { buildIndex } from '../index.js';

const sha = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const doc = (id: string, text: string, source = 'web'): Record<string, unknown> => ({ id, text, source });

function dataset(root: string): void {
  writeJsonl(join(root, 'documents/a.jsonl.gz'), [doc('a1', 'hello world'), doc('a2', 'héllo 😀', 'wiki')]);
  writeJsonl(join(root, 'documents/sub/b.jsonl'), [doc('b1', 'x'), doc('b2', 'yy'), doc('b3', 'zzz')]);
  writeJsonl(join(root, 'attributes/s1/a.jsonl.gz'), [{ id: 'a1', attributes: { k: [[0, 5, 0.5]] } }, { id: 'a2', attributes: { k: [[0, 2, 0.9]] } }]);
  writeJsonl(join(root, 'attributes/s1/sub/b.jsonl'), ['b1', 'b2', 'b3'].map((id, i) => ({ id, attributes: { k: [[0, 1, i / 10]] } })));
}

const FILES = ['attributes/s1/a.jsonl.gz', 'attributes/s1/sub/b.jsonl', 'documents/a.jsonl.gz', 'documents/sub/b.jsonl'];

/** The manifest's inputs as relative path → [role, sha256]. */
async function inputs(root: string): Promise<Record<string, [string, string]>> {
  const { manifest } = await loadManifest(indexManifestPath(root));
  return Object.fromEntries(manifest.inputs.map((i) => [i.path.slice(root.length + 1), [i.role, i.sha256]]));
}

const fresh = (root: string): Record<string, [string, string]> =>
  Object.fromEntries(FILES.map((f) => [f, [f.startsWith('documents/') ? 'documents' : 'attributes/s1', sha(join(root, f))]]));

describe('the index run manifest', () => {
  it('lists every documents and attribute file with the sha256 of its bytes, and the index with its documents per source', async () => {
    const root = scratchDir();
    dataset(root);
    await buildIndex(root, { search: false });
    expect(await inputs(root)).toEqual(fresh(root));
    const { manifest } = await loadManifest(indexManifestPath(root));
    expect(manifest.stage).toBe('index');
    expect(manifest.config).toMatchObject({ root, search: false });
    expect(manifest.outputs.map((o) => [o.path, o.role, o.docs])).toEqual([['.assay/index.sqlite', 'index', 5]]);
    expect(manifest.outputs[0]?.sha256).toBe(sha(join(root, '.assay/index.sqlite')));
    // Estimates: ⌈UTF-8 bytes / 4⌉ per document ('héllo 😀' is 11 bytes → 3).
    expect(manifest.totals.bySource).toEqual({ web: { docs: 4, tokens: { count: 3 + 1 + 1 + 1, kind: 'estimate' } }, wiki: { docs: 1, tokens: { count: 3, kind: 'estimate' } } });
  });

  it('keeps the hashes of files an incremental build skips, and records the new hash of a changed file', async () => {
    const root = scratchDir();
    dataset(root);
    await buildIndex(root, { search: false });
    const first = await inputs(root);
    expect(await buildIndex(root, { search: false })).toMatchObject({ skippedFiles: 2 });
    expect(await inputs(root)).toEqual(first);
    // Touched, same bytes: still the same hash.
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'documents/sub/b.jsonl'), future, future);
    await buildIndex(root, { search: false });
    expect(await inputs(root)).toEqual(first);
    // New bytes in one attribute file: only its hash moves, to the sha256 of the new bytes.
    writeJsonl(join(root, 'attributes/s1/sub/b.jsonl'), ['b1', 'b2', 'b3'].map((id) => ({ id, attributes: { k: [[0, 1, 0.99]] } })));
    await buildIndex(root, { search: false });
    const after = await inputs(root);
    expect(after).toEqual(fresh(root));
    expect(after['attributes/s1/sub/b.jsonl']?.[1]).not.toBe(first['attributes/s1/sub/b.jsonl']?.[1]);
    expect({ ...after, 'attributes/s1/sub/b.jsonl': null }).toEqual({ ...first, 'attributes/s1/sub/b.jsonl': null });
  });

  it('lists the search shards when it built them', async () => {
    const root = scratchDir();
    dataset(root);
    await buildIndex(root);
    const { manifest } = await loadManifest(indexManifestPath(root));
    const search = manifest.outputs.filter((o) => o.role === 'search');
    expect(search.length).toBeGreaterThan(0);
    for (const o of search) expect(o.sha256).toBe(sha(join(root, o.path)));
  });
});
