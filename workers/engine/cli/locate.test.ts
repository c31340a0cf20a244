// CLI: assay mix → locate → remove as a user runs them, and the messages for missing, truncated and foreign ledgers.
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { locate } from '../ledger/locate.js';
import { createLedger } from '../ledger/schema.js';
import { ledgerRecipe } from '../ledger/test-run.js';
import { makeDataset } from '../index/test-dataset.js';
import { scratchDir } from '../testing.js';
import { runCli } from './run-cli.js';

describe('assay locate / remove', () => {
  it('finds a document by id, url and text file, removes it into a new version, and says what was not found', async () => {
    const cwd = scratchDir();
    const docs = await makeDataset(cwd);
    writeFileSync(join(cwd, 'recipe.yaml'), ledgerRecipe('out/v1'));
    const mix = runCli(['mix', '-c', 'recipe.yaml', '--quiet'], { cwd });
    expect(mix.code, mix.stderr).toBe(0);
    const kept = JSON.parse(readFileSync(join(cwd, 'out/v1/.assay/mix-summary-s0.json'), 'utf8')) as { docs: { kept: number } };
    expect(kept.docs.kept).toBeGreaterThan(50);

    const excluded = runCli(['locate', '--id', 'doc-0-1'], { cwd });
    expect(excluded.code, excluded.stderr).toBe(0);
    expect(excluded.stdout).toMatch(/^doc-0-1 /);
    expect(excluded.stdout).toMatch(/input {3}documents\/a\.jsonl\.gz:2\n {2}fate {4}(kept|dropped.*)\n/);
    expect(excluded.stdout).toMatch(/1 match in 1 ledger\(s\)/);

    const withUrl = docs.find((d) => typeof d.metadata === 'object' && typeof (d.metadata as { url?: unknown }).url === 'string')!;
    const byUrl = runCli(['locate', '--url', String((withUrl.metadata as { url: string }).url), '--json'], { cwd });
    expect(byUrl.code, byUrl.stderr).toBe(0);
    expect((JSON.parse(byUrl.stdout) as { matches: { id: string }[] }).matches.map((m) => m.id)).toContain(String(withUrl.id));

    const long = docs.find((d) => String(d.text).length > 400)!;
    writeFileSync(join(cwd, 'text.txt'), String(long.text));
    const byText = runCli(['locate', '--text-file', 'text.txt', '--json'], { cwd });
    const m = (JSON.parse(byText.stdout) as { matches: { id: string; fate: { kind: string }; shard: unknown }[] }).matches;
    expect(m.map((x) => x.id)).toEqual([String(long.id)]);

    const none = runCli(['locate', '--id', 'nope'], { cwd });
    expect(none.code).toBe(1);
    expect(none.stdout).toMatch(/0 matches in 1 ledger/);
    const empty = scratchDir();
    const nothing = runCli(['locate', '--id', 'x', '--workspace', empty]);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/no mix ledgers under .* \(assay mix writes <output>\/\.assay\/ledger\.sqlite unless --no-ledger\)/);
    expect(runCli(['locate', '--id', 'a', '--url', 'b'], { cwd }).stderr).toMatch(/exactly one of --id, --url/);

    const keptIds = m[0]!.fate.kind === 'kept' ? [String(long.id)] : [];
    const fates = await Promise.all(docs.slice(0, 30).map(async (d) => ({ id: String(d.id), kind: (await locate(cwd, { id: String(d.id) })).matches[0]!.fate.kind })));
    const dropped = fates.find((f) => f.kind !== 'kept')!.id;
    writeFileSync(join(cwd, 'ids.txt'), [...keptIds, dropped, 'missing-1'].join('\n'));
    const refused = runCli(['remove', 'out/v1', '--ids', 'ids.txt', '--destination', 'out/v2'], { cwd });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`2 requested document(s) are not in ${join(cwd, 'out/v1')} (not kept there): id ${dropped}, id missing-1; nothing was changed`);
    const removed = runCli(['remove', 'out/v1', '--ids', 'ids.txt', '--destination', 'out/v2', '--allow-missing'], { cwd });
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toMatch(new RegExp(`removed ${keptIds.length} document\\(s\\): .*out/v2 holds ${kept.docs.kept - keptIds.length} in \\d+ shard`));
    expect(removed.stdout).toContain(`not in out/v1 (skipped, --allow-missing): id ${dropped}, id missing-1`);
    // A ledger cut short (a copy interrupted, a full disk) is refused by name.
    const ledger = join(cwd, 'out/v2/.assay/ledger.sqlite');
    truncateSync(ledger, Math.floor(statSync(ledger).size / 2));
    const cut = runCli(['locate', '--id', 'x', '--workspace', join(cwd, 'out/v2')]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(new RegExp(`${ledger.replace(/[.]/g, '\\.')}: not a readable Assay ledger \\(.*\\); rerun the stage to rewrite it`));
    expect(runCli(['preview', '--ids', 'x.txt', '-c', 'recipe.yaml', '--index', '.'], { cwd }).stderr).toMatch(/preview --ids takes no value/);
  }, 120_000);

  it('a missing, truncated or foreign ledger is named with what is wrong', () => {
    const cwd = scratchDir();
    mkdirSync(join(cwd, 'out/.assay'), { recursive: true });
    const ledger = join(cwd, 'out/.assay/ledger.sqlite');
    writeFileSync(ledger, 'SQLite format 3\0 but not really');
    const bad = runCli(['locate', '--id', 'x', '--workspace', cwd]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${ledger}: not a readable Assay ledger (`);
    expect(bad.stderr).not.toMatch(/at .*\.js:\d+/);
    // Another SQLite file in the ledger's place: an attribute index.
    copyFileSync(join(process.cwd(), 'package.json'), ledger);
    expect(runCli(['locate', '--id', 'x', '--workspace', cwd]).stderr).toMatch(/not a readable Assay ledger/);
    // A ledger of another version (an older Assay's): named, with the version.
    rmSync(ledger);
    const db = createLedger(ledger, 'mix');
    db.prepare("UPDATE meta SET value = '1' WHERE key = 'version'").run();
    db.close();
    expect(runCli(['locate', '--id', 'x', '--workspace', cwd]).stderr).toContain(`${ledger}: not a readable Assay ledger (version 1 is not supported (this Assay reads version 2))`);
    const miss = runCli(['remove', join(cwd, 'nothing'), '--ids', ledger, '--destination', join(cwd, 'v2')]);
    expect(miss.stderr).toMatch(/nothing\/\.assay\/ledger\.sqlite: no ledger here/);
  });
});
