// Merging shard parts: every row keeps its order and its files, whether the part's file ids are copied, shifted or looked up by path.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing.js';
import { mergeLedger } from './merge.js';
import { LedgerPart } from './part.js';
import { LEDGER_SCHEMA, LEDGER_VERSION } from './schema.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

/** One part's rows: [id, input file, shard output or null when dropped]. */
type Rows = [string, string, string | null][];

describe('mergeLedger', () => {
  it.each([false, true])('maps file ids by path for parts whose ids line up (copied), are offset (shifted) and overlap earlier parts (joined); first part taken over: %s', async (adopt) => {
    const { dir, cleanup } = tempDir('assay-merge-');
    try {
      const parts: Rows[] = [
        [['a1', 'in0', null], ['a2', 'in0', 'out0'], ['a3', 'in1', 'out0']],
        [['b1', 'in2', 'out1'], ['b2', 'in3', null], ['b3', 'in3', 'out1']],
        // in1 was the first part's: this part's ids are neither equal nor offset.
        [['c1', 'in4', null], ['c2', 'in1', 'out2'], ['c3', 'in4', 'out2']],
      ];
      const paths = parts.map((rows, p) => {
        const path = join(dir, `part${p}.sqlite`);
        const part = LedgerPart.open(path, 0);
        rows.forEach(([id, file, shard], i) => part.add(id, 's', null, id, file, i + 1, shard === null ? 1 : -1, 0, shard, shard === null ? null : i + 1, shard === null ? 0 : 1));
        part.close();
        return path;
      });
      mkdirSync(join(dir, '.assay'));
      await mergeLedger(dir, [{ index: 0, name: 's', reasons: [{ key: 'include', label: 'x' }] }], paths, { run: 'r1' }, adopt);
      // Taken over: renamed, not copied; the others are the caller's to remove.
      expect(paths.map((p) => existsSync(p))).toEqual([!adopt, true, true]);
      const db = new Database(join(dir, '.assay', 'ledger.sqlite'), { readonly: true });
      const meta = db.prepare('SELECT key, value FROM meta ORDER BY key').all();
      expect(meta).toEqual([{ key: 'kind', value: 'mix' }, { key: 'run', value: 'r1' }, { key: 'schema', value: LEDGER_SCHEMA }, { key: 'version', value: String(LEDGER_VERSION) }]);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'docs_%' ORDER BY name").pluck().all()).toEqual(['docs_id', 'docs_sha', 'docs_url']);
      const got = db
        .prepare('SELECT d.rowid AS r, d.doc_id AS id, f1.path AS file, f2.path AS shard, d.line AS line FROM docs d JOIN files f1 ON f1.id = d.file LEFT JOIN files f2 ON f2.id = d.shard ORDER BY d.rowid')
        .all();
      const files = db.prepare('SELECT id, path FROM files ORDER BY id').all();
      db.close();
      expect(got).toEqual(parts.flat().map(([id, file, shard], r) => ({ r: r + 1, id, file, shard, line: (r % 3) + 1 })));
      expect(files).toEqual(['in0', 'out0', 'in1', 'in2', 'out1', 'in3', 'in4', 'out2'].map((path, i) => ({ id: i + 1, path })));
    } finally {
      cleanup();
    }
  });
});
