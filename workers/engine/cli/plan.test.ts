// `assay ledger -c` and `assay plan` through the real CLI: the predicted ledger equals the run's, a written plan keeps comments and mixes as planned.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanResult, TokenLedgerResult } from '../../../shared/contract/mixplan.js';
import { makeDataset } from '../index/test-dataset.js';
import { tempDir } from '../testing.js';
import { runCli } from './run-cli.js';

const RECIPE = (out: string): string => `# tuned for the 2026 mix
streams:
  - name: s0
    documents: [documents/**/*]
    attributes: [gopher, misc]
    output: {path: ${out}, max_size_in_bytes: 20000, min_text_length: 40}
    filter:
      syntax: jq
      include: ['.attributes.misc__char_length_v1__length[0][2] > 10']
      exclude: ['.attributes.gopher__gopher_v1__word_count[0][2] < 8'] # too few words
`;

const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(async () => {
  await makeDataset(dir);
  const index = runCli(['index', '.', '--quiet'], { cwd: dir });
  expect(index.code, index.stderr).toBe(0);
}, 120_000);

const json = <T>(args: string[], code = 0): T => {
  const r = runCli(args, { cwd: dir });
  expect(r.code, r.stderr).toBe(code);
  return JSON.parse(r.stdout) as T;
};
const perStage = (l: TokenLedgerResult) => l.sources.map((s) => ({ source: s.source, raw: s.raw.docs, filtered: s.filtered.docs, sampled: s.sampled.docs, seen: s.seen.docs, repeat: s.repeat }));

describe('assay ledger -c and assay plan', () => {
  it('predicts the ledger a run then reports, and plans, writes and mixes a plan', () => {
    writeFileSync(join(dir, 'recipe.yaml'), RECIPE('out/plain'));
    const predicted = json<TokenLedgerResult>(['ledger', '-c', 'recipe.yaml', '--index', '.', '--json']);
    expect(predicted.sources.map((s) => s.source).sort()).toEqual(['', 'books', 'code', 'web']);
    expect(runCli(['mix', '-c', 'recipe.yaml', '--quiet'], { cwd: dir }).code).toBe(0);
    expect(perStage(json<TokenLedgerResult>(['ledger', 'out/plain', '--json']))).toEqual(perStage(predicted));

    // Each source's share moved: web halved, code doubled (repeats allowed), within what the filtered tokens allow.
    const targets = { web: 0.4, books: 0.3, code: 0.2, '': 0.1 };
    const have = new Map(predicted.sources.map((s) => [s.source, s.filtered.tokens]));
    const budget = Math.floor(0.9 * Math.min(...Object.entries(targets).map(([s, t]) => ((have.get(s) ?? 0) * 2) / t)));
    const args = ['plan', '-c', 'recipe.yaml', '--index', '.', '--budget', String(budget), '--target', 'web=0.4,books=0.3,code=0.2,=0.1', '--max-repetitions', '2', '--seed', '11'];
    const dry = runCli(args, { cwd: dir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(`plan for ${budget.toLocaleString('en-US')} seen tokens`);
    expect(dry.stdout).toMatch(/recipe\.yaml is unchanged: --write writes/);
    expect(readFileSync(join(dir, 'recipe.yaml'), 'utf8')).toBe(RECIPE('out/plain'));
    const plan = json<Extract<PlanResult, { feasible: true }>>([...args, '--json']);
    for (const s of plan.sources) {
      expect(dry.stdout).toMatch(new RegExp(`^${s.source || '\\(none\\)'}\\s+${s.fraction.toFixed(4)}\\s+${s.repeat}\\s+≈${s.seenTokens.toLocaleString('en-US')}\\s`, 'm'));
    }
    const wrote = runCli([...args, '--write'], { cwd: dir });
    expect(wrote.code, wrote.stderr).toBe(0);
    expect(wrote.stdout).toMatch(/wrote the plan's assay\.sample \/ assay\.repeat into recipe\.yaml/);
    const text = readFileSync(join(dir, 'recipe.yaml'), 'utf8');
    expect(text).toBe(plan.recipe);
    expect(text).toContain('# tuned for the 2026 mix');
    expect(text).toContain('# too few words');
    expect(text).toMatch(/seed: 11/);
    // The saved recipe's ledger is the plan's, and a run of it writes what was planned.
    const after = json<TokenLedgerResult>(['ledger', '-c', 'recipe.yaml', '--index', '.', '--json']);
    expect({ ...after, elapsedMs: 0 }).toEqual({ ...plan.ledger, elapsedMs: 0 });
    expect(after.total.seen.tokens).toBeLessThanOrEqual(budget);
    writeFileSync(join(dir, 'recipe.yaml'), text.replace('path: out/plain', 'path: out/planned'));
    expect(runCli(['mix', '-c', 'recipe.yaml', '--quiet'], { cwd: dir }).code).toBe(0);
    expect(perStage(json<TokenLedgerResult>(['ledger', 'out/planned', '--json']))).toEqual(perStage(after));
  }, 180_000);

  it('refuses an infeasible plan naming the binding source, and leaves the recipe alone', () => {
    writeFileSync(join(dir, 'short.yaml'), RECIPE('out/short'));
    const l = json<TokenLedgerResult>(['ledger', '-c', 'short.yaml', '--index', '.', '--json']);
    const code = l.sources.find((s) => s.source === 'code')!;
    const args = ['plan', '-c', 'short.yaml', '--index', '.', '--budget', String(code.filtered.tokens * 3), '--target', 'code=0.7,web=0.1,books=0.1,=0.1', '--write'];
    const r = runCli(args, { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^assay: no plan meets the targets: code: needs .* max_repetitions 1 = /);
    expect(json<PlanResult>([...args, '--json'], 1)).toMatchObject({ feasible: false, source: 'code' });
    expect(readFileSync(join(dir, 'short.yaml'), 'utf8')).toBe(RECIPE('out/short'));
    expect(runCli(['plan', '-c', 'short.yaml', '--index', '.', '--budget', '1e6'], { cwd: dir }).stderr).toMatch(/plan needs --budget TOKENS and --target/);
    expect(runCli(['ledger', '-c', 'short.yaml', '--index', '.', 'out/short'], { cwd: dir }).stderr).toMatch(/a recipe \(-c\) or an output folder, not both/);
  });
});
