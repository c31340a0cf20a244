// assay remove: the new version equals a fresh mix (and tokens) without the documents; the old one is untouched; misses refuse.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewEngine } from '../index/index.js';
import { loadManifest } from '../manifest/read.js';
import { manifestPathFor } from '../manifest/schema.js';
import { tempDir } from '../testing.js';
import { locate } from './locate.js';
import { removeDocuments } from './remove.js';
import { ledgerWorkspace, mixAt, shardRows, tokensAt } from './test-run.js';

/** Every file under `dir` with its sha256 and mtime: "untouched" means equal. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(dir, p)] = `${createHash('sha256').update(readFileSync(p)).digest('hex')}@${statSync(p).mtimeMs}`;
    }
  };
  walk(dir);
  return out;
}

const parts = (dir: string): Map<string, Buffer> => new Map(readdirSync(dir).filter((n) => n.endsWith('.npy')).map((n) => [n, readFileSync(join(dir, n))]));

describe('assay remove', () => {
  const { dir: root, cleanup } = tempDir('assay-remove-');
  let engine: PreviewEngine;
  let kept: Record<string, unknown>[];
  beforeAll(async () => {
    ({ engine } = await ledgerWorkspace(root));
    kept = shardRows(join(root, 'out/v1')).map((r) => r.doc);
  }, 120_000);
  afterAll(() => {
    engine?.close();
    cleanup();
  });

  it('10 ids: the new output and tokens equal a fresh mix and tokens run without them; the old version is untouched', async () => {
    const gone = kept.filter((_, i) => i % 8 === 3).slice(0, 10);
    expect(gone).toHaveLength(10);
    const ids = gone.map((d) => String(d.id));
    const before = { out: snapshot(join(root, 'out/v1')), tok: snapshot(join(root, 'tok/v1')) };
    writeFileSync(join(root, 'takedown.txt'), ids.join('\n') + '\n');
    const r = await removeDocuments(join(root, 'out/v1'), join(root, 'out/v2'), { ids, files: [join(root, 'takedown.txt')] }, { tokens: { from: join(root, 'tok/v1'), destination: join(root, 'tok/v2') } });
    expect(r.removed).toBe(10);
    expect(r.missing).toEqual([]);

    await mixAt(root, 'out/fresh', { excludeIds: ids });
    await tokensAt(root, 'out/fresh', 'tok/fresh');
    const strip = (rows: ReturnType<typeof shardRows>, dir: string): unknown[] => rows.map((x) => [relative(dir, x.file), x.line, x.doc]);
    const fresh = shardRows(join(root, 'out/fresh'));
    expect(strip(shardRows(join(root, 'out/v2')), join(root, 'out/v2'))).toEqual(strip(fresh, join(root, 'out/fresh')));
    expect(fresh.length).toBe(kept.length - 10);
    expect(parts(join(root, 'tok/v2'))).toEqual(parts(join(root, 'tok/fresh')));
    const all = [...readdirSync(join(root, 'out/v2')), ...readdirSync(join(root, 'tok/v2'))].length;
    expect(all).toBeGreaterThan(4);
    for (const d of gone) for (const row of shardRows(join(root, 'out/v2'))) expect(row.doc.text).not.toBe(d.text);

    expect({ out: snapshot(join(root, 'out/v1')), tok: snapshot(join(root, 'tok/v1')) }).toEqual(before);
    const m = await loadManifest(manifestPathFor(join(root, 'out/v2')));
    expect(m.manifest.stage).toBe('remove');
    expect(m.manifest.config).toMatchObject({ removal: { ids, matched: 10, missing: [] } });
    expect(m.manifest.inputs.some((i) => i.role === 'removal-request' && i.path === join(root, 'takedown.txt'))).toBe(true);
    expect(m.manifest.parents.some((p) => p.path === manifestPathFor(join(root, 'out/v1')))).toBe(true);

    // locate over the workspace: kept in v1 (with tokens), removed in v2; a kept neighbour moved up a line in v2.
    const found = await locate(root, { id: ids[0]! });
    const byOut = new Map(found.matches.map((x) => [relative(root, x.output), x]));
    expect(byOut.get('out/v1')?.fate.kind).toBe('kept');
    expect(byOut.get('out/v1')?.tokens).toHaveLength(1);
    expect(byOut.get('out/v2')?.fate.kind).toBe('removed');
    expect(byOut.get('out/v2')?.shard).toBeNull();
    for (const row of shardRows(join(root, 'out/v2')).slice(0, 30)) {
      const x = (await locate(root, { id: String(row.doc.id) })).matches.filter((y) => y.output === join(root, 'out/v2'));
      expect(x.map((y) => y.shard)).toEqual([{ file: row.file, line: row.line }]);
      expect(x[0]!.tokens).toHaveLength(1);
    }
  });

  it('ids that are not in the output are reported and nothing is written, unless allowed', async () => {
    const ids = [String(kept[0]!.id), 'no-such-doc', 'doc-0-999'];
    await expect(removeDocuments(join(root, 'out/v1'), join(root, 'out/v3'), { ids })).rejects.toThrow(/2 requested document\(s\) are not in .*out\/v1.*id no-such-doc, id doc-0-999; nothing was changed/);
    expect(existsSync(join(root, 'out/v3'))).toBe(false);
    const r = await removeDocuments(join(root, 'out/v1'), join(root, 'out/v3'), { ids }, { allowMissing: true });
    expect(r).toMatchObject({ removed: 1, missing: ['id no-such-doc', 'id doc-0-999'] });
    await expect(removeDocuments(join(root, 'out/v1'), join(root, 'out/v3'), { ids })).rejects.toThrow(/already exists/);
    await expect(removeDocuments(join(root, 'documents'), join(root, 'out/v4'), { ids })).rejects.toThrow(/ledger\.sqlite: no ledger here/);
  });
});
