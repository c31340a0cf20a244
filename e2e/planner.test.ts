// Issue 14 in Debian's Chromium: a planner target moved → the recipe's YAML changes → the ledger and the preview follow and equal `assay ledger` on the saved recipe.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TokenLedgerResult } from '../shared/contract/index.js';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { editorText, figure, hasChromium, openRecipe, openSession, shot, type Session } from './harness.js';

const RECIPE = 'recipes/demo.yaml';

/** Waits until the preview, the ledger and the planner have all caught up with the editor's text. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const q = (id: string) => document.querySelector(`[data-testid="${id}"]`);
      return (
        q('preview-status')?.getAttribute('data-stale') === 'false' &&
        q('preview-status')?.getAttribute('data-running') === 'false' &&
        q('ledger')?.getAttribute('data-stale') === 'false' &&
        q('ledger')?.getAttribute('data-running') === 'false' &&
        q('planner')?.getAttribute('data-running') !== 'true'
      );
    },
    undefined,
    { timeout: 60_000 },
  );
}

/** `assay ledger -c <saved recipe> --index . --json`, run from the workspace as the app's jobs are. */
function cliLedger(ws: string): TokenLedgerResult {
  const r = runCli(['ledger', '-c', RECIPE, '--index', '.', '--json'], { cwd: ws });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as TokenLedgerResult;
}

describe.skipIf(!hasChromium)('token ledger and mix planner e2e (issue 14)', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession({ docs: 600 });
    await openRecipe(s.page, s.server, RECIPE);
  }, 240_000);
  afterAll(async () => s?.close());

  it('shows the ledger of the open recipe, equal to assay ledger on it', async () => {
    const { page, ws } = s;
    await page.getByTestId('tab-ledger').click();
    await page.getByTestId('ledger-table').waitFor({ timeout: 60_000 });
    await settled(page);
    const cli = cliLedger(ws);
    expect(cli.sources.map((x) => x.source).sort()).toEqual(['books', 'forum', 'web']);
    for (const src of cli.sources) for (const st of ['raw', 'filtered', 'sampled', 'seen'] as const) expect(await figure(page, `ledger-${src.source}-${st}-tokens`), `${src.source} ${st}`).toBe(src[st].tokens);
    expect(await figure(page, 'planner-target-total')).toBeCloseTo(1, 9);
    // The per-rule token loss is one click away.
    await page.getByTestId('ledger-row-web').click();
    const loss = cli.sources.find((x) => x.source === 'web')!.lostByRule;
    expect(loss.length).toBeGreaterThan(0);
    for (const l of loss) expect(await page.getByTestId(`ledger-loss-web-${l.rule}`).getAttribute('data-tokens')).toBe(String(l.tokens));
  });

  it('moving a source’s target rewrites the YAML; the chart, table and preview totals then equal assay ledger on the saved recipe', async () => {
    const { page, ws } = s;
    const before = await editorText(page);
    const seenBefore = await figure(page, 'ledger-total-seen-tokens');
    const chartBefore = await page.getByTestId('ledger-chart').getAttribute('aria-label');
    // Half the tokens, and up to two copies of a document: books can then take a larger share than it has now.
    await page.getByTestId('planner-max-repetitions').fill('2');
    const budget = Math.floor(seenBefore / 2);
    await page.getByTestId('planner-budget').fill(String(budget));
    await page.getByTestId('planner-budget').press('Enter');
    await settled(page);
    const planned = await editorText(page);
    await page.getByTestId('planner-target-books').fill('450');
    await expect.poll(async () => editorText(page), { timeout: 30_000 }).not.toBe(planned);
    await settled(page);
    const text = await editorText(page);
    expect(text).not.toBe(before);
    expect(text).toMatch(/assay:\s*\n\s+sample:/);
    expect(await figure(page, 'planner-target-total')).toBeCloseTo(1, 9);
    expect(Number(await page.getByTestId('planner-target-books').inputValue())).toBe(450);
    await shot(page, 'e2e14-ledger');
    await page.getByTestId('planner').scrollIntoViewIfNeeded();
    await shot(page, 'e2e14-planner');

    await page.getByTestId('recipe-save').click();
    await expect.poll(async () => page.getByTestId('recipe-dirty').getAttribute('data-dirty'), { timeout: 10_000 }).toBe('false');
    expect(readFileSync(join(ws, RECIPE), 'utf8')).toBe(text);
    const cli = cliLedger(ws);
    const books = cli.sources.find((x) => x.source === 'books')!;
    expect(Math.abs(books.share - 0.45)).toBeLessThan(0.005);
    expect(cli.total.seen.tokens).toBeLessThanOrEqual(budget);
    expect(cli.total.seen.tokens).not.toBe(seenBefore);
    for (const src of cli.sources) {
      for (const st of ['raw', 'filtered', 'sampled', 'seen'] as const) {
        expect(await figure(page, `ledger-${src.source}-${st}-tokens`), `${src.source} ${st}`).toBe(src[st].tokens);
        expect(await page.getByTestId(`ledger-${src.source}-${st}`).getAttribute('data-docs'), `${src.source} ${st} docs`).toBe(String(src[st].docs));
      }
      expect(Number(await page.getByTestId(`ledger-${src.source}-share`).getAttribute('data-value'))).toBeCloseTo(src.share, 12);
    }
    // The chart's bars: each source's seen tokens at the seen bar (estimates are marked ≈).
    const chart = (await page.getByTestId('ledger-chart').getAttribute('aria-label')) ?? '';
    expect(chart).not.toBe(chartBefore);
    const seenPart = chart.slice(chart.indexOf('; seen '));
    for (const src of cli.sources) expect(seenPart).toContain(`${src.source} ${cli.tokens.kind === 'exact' ? '' : '≈'}${src.seen.tokens.toLocaleString('en-US')}`);
    // The preview counts each copy a repeat writes among the kept: its kept totals are the ledger's seen.
    expect(await figure(page, 'total-kept')).toBe(cli.total.seen.docs);
    expect(await figure(page, 'total-kept-tokens')).toBe(cli.total.seen.tokens);
  });

  it('an infeasible target is refused with the binding source, and the recipe stays as it was', async () => {
    const { page } = s;
    const text = await editorText(page);
    // Ten times the filtered tokens with at most two copies: some source runs out.
    await page.getByTestId('planner-budget').fill(String(10 * (await figure(page, 'ledger-total-filtered-tokens'))));
    await page.getByTestId('planner-budget').press('Enter');
    await page.getByTestId('planner-refusal').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('planner-refusal').getAttribute('data-source')).toMatch(/^(web|forum|books)$/);
    expect(await page.getByTestId('planner-refusal').innerText()).toMatch(/No plan meets these targets — (web|forum|books): needs .* The recipe was not changed\./);
    expect(await editorText(page)).toBe(text);
    expect(s.consoleErrors).toEqual([]);
  });
});
