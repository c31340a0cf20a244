// A ledger part: each text's sha256, sha_key and bytes as Buffer.from encodes it, whatever its length; held-back rows land after the ones added before them.
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../testing.js';
import { LedgerPart, shaKey } from './part.js';
import { createLedger, createPart } from './schema.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

describe('LedgerPart text columns', () => {
  it('parts and ledgers keep their rollback journal in memory: no journal file beside them while a transaction runs', () => {
    const { dir, cleanup } = tempDir('assay-part-');
    try {
      for (const db of [createPart(join(dir, 'p.sqlite')), createLedger(join(dir, 'l.sqlite'), 'mix')]) {
        expect(db.pragma('journal_mode', { simple: true })).toBe('memory');
        db.exec('BEGIN');
        db.exec("INSERT INTO files(path) VALUES ('x')");
        expect(readdirSync(dir).filter((f) => f.endsWith('-journal'))).toEqual([]);
        db.exec('COMMIT');
        db.close();
      }
    } finally {
      cleanup();
    }
  });

  it('hashes and counts the UTF-8 bytes of each text: lone surrogates as U+FFFD, long texts, non-strings as empty', () => {
    const { dir, cleanup } = tempDir('assay-part-');
    try {
      const texts: unknown[] = ['plain', 'a\uD800b\uDC00 😊 é', 'x'.repeat(70_000) + 'é', '𝔸'.repeat(40_000), '', 42, 'short again'];
      const path = join(dir, 'p.sqlite');
      const part = LedgerPart.open(path, 0);
      texts.forEach((t, i) => part.add(`d${i}`, 's', null, t, 'in.jsonl', i + 1, -1, 0, null, null));
      part.close();
      const db = new Database(path, { readonly: true });
      const rows = db.prepare('SELECT sha256, sha_key, bytes FROM docs ORDER BY rowid').all() as { sha256: Buffer; sha_key: number; bytes: number }[];
      db.close();
      expect(rows).toHaveLength(texts.length);
      texts.forEach((t, i) => {
        const utf8 = Buffer.from(typeof t === 'string' ? t : '', 'utf8');
        const sha = createHash('sha256').update(utf8).digest();
        expect(rows[i]).toEqual({ sha256: sha, sha_key: shaKey(sha), bytes: utf8.length });
      });
    } finally {
      cleanup();
    }
  });

  it('puts held-back rows after the rows added before flushLater, in their own order, across 64-row blocks and at close', () => {
    const { dir, cleanup } = tempDir('assay-part-');
    try {
      const path = join(dir, 'p.sqlite');
      const part = LedgerPart.open(path, 0);
      const want: string[] = [];
      for (let batch = 0; batch < 3; batch++) {
        const later: string[] = [];
        for (let i = 0; i < 50; i++) {
          const id = `b${batch}-${i}`;
          if (i % 3 === 0) {
            part.add(id, 's', null, id, 'in.jsonl', i + 1, 2, 0, null, null);
            want.push(id);
          } else {
            part.addLater(id, 's', null, id, 'in.jsonl', i + 1, -1, 0, 'out.jsonl', i + 1, 1);
            later.push(id);
          }
        }
        if (batch < 2) part.flushLater();
        want.push(...later);
      }
      part.close();
      const db = new Database(path, { readonly: true });
      const ids = (db.prepare('SELECT doc_id FROM docs ORDER BY rowid').all() as { doc_id: string }[]).map((r) => r.doc_id);
      db.close();
      expect(ids).toEqual(want);
    } finally {
      cleanup();
    }
  });

  it('a part opened to append keeps its rows and file ids (new paths continue them); opened afresh it starts empty', () => {
    const { dir, cleanup } = tempDir('assay-part-');
    try {
      const path = join(dir, 'p.sqlite');
      const first = LedgerPart.open(path, 0);
      first.add('a', 's', null, 'a', 'in0.jsonl', 1, -1, 0, 'out0.jsonl', 1, 1);
      first.close();
      const second = LedgerPart.open(path, 1, true);
      second.add('b', 's', null, 'b', 'in1.jsonl', 1, 2, 0, null, null);
      second.add('c', 's', null, 'c', 'in0.jsonl', 2, -1, 0, 'out0.jsonl', 2, 1);
      second.close();
      const read = (): unknown[] => {
        const db = new Database(path, { readonly: true });
        try {
          return db.prepare('SELECT d.doc_id, d.stream, f.path AS file, o.path AS shard FROM docs d JOIN files f ON f.id = d.file LEFT JOIN files o ON o.id = d.shard ORDER BY d.rowid').all();
        } finally {
          db.close();
        }
      };
      expect(read()).toEqual([
        { doc_id: 'a', stream: 0, file: 'in0.jsonl', shard: 'out0.jsonl' },
        { doc_id: 'b', stream: 1, file: 'in1.jsonl', shard: null },
        { doc_id: 'c', stream: 1, file: 'in0.jsonl', shard: 'out0.jsonl' },
      ]);
      LedgerPart.open(path, 0).close();
      expect(read()).toEqual([]);
    } finally {
      cleanup();
    }
  });
});
