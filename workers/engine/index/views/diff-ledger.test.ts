// Recipe diff = the difference of two real mix runs' ledgers, document by document, on 50 random recipe pairs.
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { PreviewRule } from '../../../../shared/contract/preview.js';
import { findLedgers } from '../../ledger/find.js';
import { KEPT as LEDGER_KEPT } from '../../ledger/schema.js';
import { parseMixerConfig } from '../../mix/config.js';
import { runMix } from '../../mix/mixer.js';
import { rng } from '../../testing.js';
import { recipePair } from '../recipe-grammar.js';
import { indexedDataset, ODD_SET, TAGGED_SETS } from '../test-dataset.js';
import { changeOf, KEPT, OUTSIDE } from './diff.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
const PAIRS = Number(process.env.ASSAY_DIFF_PAIRS ?? 50);

/**
 * Each (stream, id) → its fate as a recipe rule index (diff's terms) from the ledgers a real mix wrote. The ledger
 * numbers reasons as the mixer does (0 no include matched, 1 + j exclude[j], last min_text_length); the diff names
 * rules in recipe order and puts "no include matched" on the stream's last include rule.
 */
async function ledgerFates(root: string, text: string, rules: readonly PreviewRule[]): Promise<Map<string, number>> {
  await runMix(parseMixerConfig(text, 'recipe.yaml'), { cwd: root, processes: 1 });
  const fates = new Map<string, number>();
  for (const path of await findLedgers(root)) {
    const db = new Database(path, { readonly: true });
    try {
      const rows = db.prepare('SELECT s.name AS stream, d.doc_id, d.fate, r.key FROM docs d JOIN streams s ON s.id = d.stream LEFT JOIN rules r ON r.stream = d.stream AND r.reason = d.fate').all() as { stream: string; doc_id: string; fate: number; key: string | null }[];
      for (const row of rows) {
        const mine = rules.filter((r) => r.stream === row.stream);
        let rule: number;
        if (row.fate === LEDGER_KEPT) rule = KEPT;
        else if (row.key === 'include') rule = mine.filter((r) => r.kind === 'include').at(-1)!.index;
        else if (row.key === 'min_text_length' || row.key === 'sample') rule = mine.find((r) => r.kind === row.key)!.index;
        else rule = mine.filter((r) => r.kind === 'exclude')[Number(/\d+/.exec(row.key!)![0])]!.index;
        fates.set(`${row.stream}\0${row.doc_id}`, rule);
      }
    } finally {
      db.close();
    }
    rmSync(dirname(dirname(path)), { recursive: true, force: true });
  }
  return fates;
}

describe('recipe diff = difference of two mix runs’ ledgers', () => {
  const ds = indexedDataset('assay-diff-ledger-');
  const root = ds.root;

  it(`${PAIRS} random recipe pairs`, async () => {
    const engine = ds.engine();
    const ids = ds.docs().map((d) => String(d.id));
    const r = rng(4242);
    const catalogue = engine.catalogue();
    let compared = 0;
    let changes = 0;
    let multiStream = 0;
    for (let n = 0; compared < PAIRS && n < PAIRS * 6; n++) {
      const pair = recipePair(r, n, { sets: [...TAGGED_SETS, ODD_SET], partialSets: [ODD_SET], catalogue, sampling: true });
      let d;
      let rules: { old: PreviewRule[]; new: PreviewRule[] };
      try {
        rules = { old: engine.preview(pair.old.text).rules, new: engine.preview(pair.new.text).rules };
        d = engine.diff(pair.old.text, pair.new.text, { samples: 100_000 });
      } catch {
        continue; // a recipe the mixer refuses too: preview = run covers those
      }
      const ctx = `recipe pair #${n}:\n${pair.old.text}\n---\n${pair.new.text}`;
      const a = await ledgerFates(root, pair.old.text, rules.old);
      const b = await ledgerFates(root, pair.new.text, rules.new);
      const got = new Map<string, string>();
      for (const g of d.groups) for (const id of g.sampleIds) got.set(`${g.stream}\0${id}`, `${g.change}:${g.from.rule ?? ''}:${g.to.rule ?? ''}`);
      const pairs = new Map(d.ruleMap.map((m) => [m.old, m.new]));
      const streams = new Set([...rules.old, ...rules.new].map((x) => x.stream));
      for (const k of [...a.keys(), ...b.keys()]) streams.add(k.split('\0')[0]!);
      const want = new Map<string, string>();
      for (const s of streams) {
        for (const id of ids) {
          const [x, y] = [a.get(`${s}\0${id}`) ?? OUTSIDE, b.get(`${s}\0${id}`) ?? OUTSIDE];
          const change = changeOf(x, y, pairs);
          if (change) want.set(`${s}\0${id}`, `${change}:${x >= 0 ? x : ''}:${y >= 0 ? y : ''}`);
        }
      }
      expect(got, ctx).toEqual(want);
      compared++;
      changes += want.size;
      if (streams.size > 1) multiStream++;
    }
    console.log(`diff vs ledgers: ${compared} pairs, ${changes} changed (stream, document) pairs, ${multiStream} pairs with several streams`);
    expect(compared).toBe(PAIRS);
    expect(changes).toBeGreaterThan(PAIRS * 2);
  }, 300_000);
});
