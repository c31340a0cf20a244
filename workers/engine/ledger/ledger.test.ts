// The mix ledger and locate: every document found by id, url, text hash and substring, each fate as explain names it, tokens round trip.
import { createHash } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerFate } from '../../../shared/contract/ledger.js';
import type { PreviewEngine } from '../index/index.js';
import { tempDir } from '../testing.js';
import { pyStripLinear } from '../tokenize/documents.js';
import { NEOX_EOS, NEOX_JSON } from '../tokenize/test-helpers.js';
import { loadTokenizer } from '../tokenize/tokenizer/load.js';
import { locate } from './locate.js';
import { ledgerPathFor } from './schema.js';
import { parseMixerConfig } from '../mix/config.js';
import { runMix } from '../mix/mixer.js';
import { ledgerRecipe, ledgerWorkspace, mixAt, shardRows, tokenSlice } from './test-run.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const sha = (t: string): string => createHash('sha256').update(t).digest('hex');

describe('mix ledger and locate', () => {
  const { dir: root, cleanup } = tempDir('assay-ledger-');
  let docs: Record<string, unknown>[];
  let engine: PreviewEngine;
  beforeAll(async () => {
    ({ docs, engine } = await ledgerWorkspace(root));
  }, 120_000);
  afterAll(() => {
    engine?.close();
    cleanup();
  });

  /** What explain says, in the ledger's terms. */
  const explained = (id: string): { fate: LedgerFate['kind']; exclude: number | null; output?: string } => {
    const text = ledgerRecipe('out/v1');
    const e = engine.explain(text, id);
    if (e.fate === 'kept') return { fate: 'kept', exclude: null, output: e.output as string };
    const rules = engine.preview(text).rules;
    const rule = rules.find((r) => r.index === e.droppedBy)!;
    if (rule.kind === 'include') return { fate: 'no_include', exclude: null };
    if (rule.kind === 'min_text_length') return { fate: 'min_text_length', exclude: null };
    return { fate: 'excluded', exclude: rules.filter((r) => r.kind === 'exclude' && r.index < rule.index).length };
  };

  it('finds every document by id: its input line, the fate and rule explain names, its shard line and tokens', async () => {
    const tok = await loadTokenizer({ nameOrPath: NEOX_JSON });
    const rows = new Map(shardRows(join(root, 'out/v1')).map((r) => [`${r.file}:${r.line}`, r.doc]));
    const fates = new Map<string, number>();
    for (const doc of docs) {
      const id = String(doc.id);
      const r = await locate(root, { id });
      expect(r.ledgers).toEqual([ledgerPathFor(join(root, 'out/v1'))]);
      expect(r.matches, id).toHaveLength(1);
      const m = r.matches[0]!;
      const want = explained(id);
      expect({ fate: m.fate.kind, exclude: m.fate.exclude }, id).toEqual({ fate: want.fate, exclude: want.exclude });
      expect(m.sha256).toBe(sha(String(doc.text)));
      expect(m.input.file.startsWith(join(root, 'documents'))).toBe(true);
      fates.set(m.fate.kind, (fates.get(m.fate.kind) ?? 0) + 1);
      if (m.fate.kind !== 'kept') {
        expect(m.shard).toBeNull();
        expect(m.tokens).toEqual([]);
        continue;
      }
      const out = rows.get(`${m.shard!.file}:${m.shard!.line}`)!;
      expect(out.id).toBe(id);
      expect(out.text).toBe(want.output);
      expect(m.replacedChars > 0).toBe(out.text !== doc.text);
      const stripped = pyStripLinear(String(out.text)).normalize('NFC');
      expect(m.tokens).toHaveLength(1);
      const t = m.tokens[0]!;
      expect(tok.decode(tokenSlice(t.npy, t.start, t.end))).toBe(`${stripped}${tok.decode([NEOX_EOS])}`);
    }
    // The recipe exercises every fate a mix can give.
    expect([...fates.keys()].sort()).toEqual(['excluded', 'kept', 'min_text_length', 'no_include']);
  });

  it('finds documents by url, by text hash and by substring, exactly the ones that match', async () => {
    const url = (d: Record<string, unknown>): unknown => (d.metadata as { url?: unknown } | undefined)?.url;
    const ids = (r: { matches: { id: string }[] }): string[] => r.matches.map((m) => m.id).sort();
    const withUrl = docs.filter((d) => typeof d.metadata === 'object' && typeof url(d) === 'string');
    expect(withUrl.length).toBeGreaterThan(20);
    for (const d of withUrl.slice(0, 25)) {
      expect(ids(await locate(root, { url: url(d) as string }))).toEqual(withUrl.filter((x) => url(x) === url(d)).map((x) => String(x.id)).sort());
    }
    for (const d of docs.slice(0, 40)) {
      expect(ids(await locate(root, { textHash: sha(String(d.text)) }))).toEqual(docs.filter((x) => x.text === d.text).map((x) => String(x.id)).sort());
    }
    for (const needle of ['john.doe@example.com', '😀', 'same line\nsame']) {
      const progress: number[] = [];
      const r = await locate(root, { contains: needle }, { onProgress: (p) => progress.push(p.done / p.total) });
      expect(ids(r), needle).toEqual(docs.filter((x) => String(x.text).includes(needle)).map((x) => String(x.id)).sort());
      expect(r.matches.length).toBeGreaterThan(0);
      expect(progress.at(-1)).toBe(1);
    }
    const capped = await locate(root, { contains: 'e' }, { limit: 5 });
    expect(capped.matches).toHaveLength(5);
    expect(capped.truncated).toBe(true);
  });

  it('within one run: its ledger only, with token ranges from a tokens run elsewhere in the workspace', async () => {
    await mixAt(root, 'out/other');
    const id = String(shardRows(join(root, 'out/v1'))[0]!.doc.id);
    expect((await locate(root, { id })).matches.map((m) => m.output).sort()).toEqual([join(root, 'out/other'), join(root, 'out/v1')]);
    const mine = await locate(root, { id }, { within: join(root, 'out/v1') });
    expect(mine.ledgers).toEqual([ledgerPathFor(join(root, 'out/v1'))]);
    expect(mine.matches[0]!.tokens[0]!.ledger).toBe(ledgerPathFor(join(root, 'tok/v1')));
    rmSync(join(root, 'out/other'), { recursive: true });
  });

  it('a pool of shard processes writes the same ledger as one process (whose shards share one part, taken over as the ledger)', async () => {
    await mixAt(root, 'out/p2', { processes: 2 });
    const read = (out: string): { rows: unknown[]; files: unknown[]; tables: unknown[] } => {
      const db = new Database(ledgerPathFor(join(root, out)), { readonly: true });
      const at = join(root, out);
      try {
        return {
          rows: db.prepare("SELECT d.rowid, d.doc_id, d.sha256, d.fate, d.replaced, d.out_line, f.path AS file, d.line, replace(s.path, ?, '') AS shard, d.bytes, d.copies FROM docs d JOIN files f ON f.id = d.file LEFT JOIN files s ON s.id = d.shard ORDER BY d.rowid").all(at),
          files: db.prepare("SELECT id, replace(path, ?, '') AS path FROM files ORDER BY id").all(at),
          tables: [
            db.prepare("SELECT key, replace(value, ?, '') AS value FROM meta ORDER BY key").all(at),
            db.prepare('SELECT * FROM streams').all(),
            db.prepare('SELECT * FROM rules ORDER BY stream, reason').all(),
            db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name").all(),
          ],
        };
      } finally {
        db.close();
      }
    };
    const one = read('out/v1');
    expect(one.rows).toHaveLength(docs.length);
    // Several shards, so the one-process run appended to its shared part.
    expect(new Set(one.rows.map((r) => (r as { shard: string | null }).shard).filter((s) => s !== null)).size).toBeGreaterThan(1);
    expect(read('out/p2')).toEqual(one);
    expect(existsSync(join(root, 'out/v1/.assay/ledger-parts'))).toBe(false);
    rmSync(join(root, 'out/p2'), { recursive: true });
  });

  it('streams sharing an output folder and one with its own: one ledger per folder, the same from one process as from a pool', async () => {
    const recipe = (tag: string): string =>
      ['a', 'b', 'c']
        .map((n) => ledgerRecipe(`out/${tag}-${n === 'c' ? 'c' : 'ab'}`).replace('  - name: s0', `  - name: ${n}`).replace('streams:\n', ''))
        .reduce((a, b) => a + b, 'streams:\n');
    const read = (out: string): unknown[] => {
      const db = new Database(ledgerPathFor(join(root, out)), { readonly: true });
      try {
        return db.prepare("SELECT d.rowid, d.doc_id, s.name AS stream, d.fate, f.path AS file, replace(o.path, ?, '') AS shard FROM docs d JOIN streams s ON s.id = d.stream JOIN files f ON f.id = d.file LEFT JOIN files o ON o.id = d.shard ORDER BY d.rowid").all(join(root, out));
      } finally {
        db.close();
      }
    };
    for (const [tag, processes] of [['one', 1], ['pool', 2]] as const) {
      await runMix(parseMixerConfig(recipe(tag), 'recipe.yaml'), { cwd: root, processes });
    }
    const ab = read('out/one-ab');
    expect(ab).toHaveLength(2 * docs.length);
    expect(new Set(ab.map((r) => (r as { stream: string }).stream))).toEqual(new Set(['a', 'b']));
    expect(read('out/pool-ab')).toEqual(ab);
    expect(read('out/one-c')).toHaveLength(docs.length);
    expect(read('out/pool-c')).toEqual(read('out/one-c'));
    for (const d of ['one-ab', 'one-c', 'pool-ab', 'pool-c']) rmSync(join(root, 'out', d), { recursive: true });
  });

  it('--no-ledger writes none and removes one an earlier run left, which would describe other shards', async () => {
    await mixAt(root, 'out/nl');
    expect(existsSync(ledgerPathFor(join(root, 'out/nl')))).toBe(true);
    await mixAt(root, 'out/nl', { ledger: false });
    expect(existsSync(ledgerPathFor(join(root, 'out/nl')))).toBe(false);
    expect(existsSync(join(root, 'out/nl/.assay/ledger-parts'))).toBe(false);
    rmSync(join(root, 'out/nl'), { recursive: true });
  });
});
