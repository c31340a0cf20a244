// Issue 13.4 in Debian's Chromium: compare the edited recipe with the saved version and a past run (= `assay diff`), a run's page with its manifest and ledger.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecipeDiffResult } from '../shared/contract/index.js';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { readJsonlFile } from '../workers/engine/testing.js';
import { editorText, figure, hasChromium, openRecipe, openSession, setEditorText, shot, type Session } from './harness.js';

/** `assay diff --json` of two recipe texts over the workspace's index, run from the workspace (as the app's jobs are). */
function cliDiff(ws: string, oldText: string, newText: string): RecipeDiffResult {
  writeFileSync(join(ws, '.e2e-old.yaml'), oldText);
  writeFileSync(join(ws, '.e2e-new.yaml'), newText);
  const r = runCli(['diff', '-c', '.e2e-old.yaml', '-c', '.e2e-new.yaml', '--index', '.', '--json', '--samples', '1000'], { cwd: ws });
  expect(r.code, r.stderr).toBe(JSON.parse(r.stdout).changed.docs > 0 ? 1 : 0);
  return JSON.parse(r.stdout) as RecipeDiffResult;
}

const side = (s: { fate: string; rule?: number }): string => (s.fate === 'dropped' ? `rule ${s.rule}` : s.fate);

/** Every row the documents table lists (it is virtual: scrolled through), as id → its old → new cell. */
async function tableRows(page: Page): Promise<Map<string, string>> {
  const total = Number(await page.getByTestId('documents-total').getAttribute('data-value'));
  const rows = new Map<string, string>();
  const body = page.getByTestId('documents-table').locator('.tbody');
  await body.evaluate((el) => el.scrollTo({ top: 0 }));
  for (let guard = 0; rows.size < total && guard < 100; guard++) {
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="documents-table"] .tr.pending').length === 0);
    const seen = await page.locator('[data-testid^="doc-row-"]').evaluateAll((els) =>
      els.map((e) => [e.getAttribute('data-doc-id') ?? '', e.querySelector('[data-col="change"]')?.textContent ?? ''] as const),
    );
    for (const [id, change] of seen) if (id) rows.set(id, change);
    await body.evaluate((el) => el.scrollBy({ top: el.clientHeight - 40 }));
  }
  return rows;
}

describe.skipIf(!hasChromium)('compare and run page e2e (issue 13.4)', () => {
  let s: Session;
  let original: string;
  let edited: string;
  let diff: RecipeDiffResult;
  beforeAll(async () => {
    s = await openSession({ docs: 600 });
    await openRecipe(s.page, s.server, 'recipes/demo.yaml');
  }, 240_000);
  afterAll(async () => s?.close());

  it('compares the edited recipe with the saved version: the changed count and each group’s documents, old → new', async () => {
    const { page, ws } = s;
    original = await editorText(page);
    // Two rules change: more pages with too few words dropped, a looser language threshold.
    edited = original.replace('word_count[0][2] < 50', 'word_count[0][2] < 80').replace('en[0][2] < 0.5', 'en[0][2] < 0.3');
    expect(edited).not.toBe(original);
    diff = cliDiff(ws, original, edited);
    expect(diff.groups.length).toBeGreaterThanOrEqual(2);
    await setEditorText(page, edited);
    await expect.poll(() => figure(page, 'total-kept'), { timeout: 30_000 }).toBe(diff.kept.new.docs);
    await page.getByTestId('compare-target').selectOption('saved');
    await expect.poll(() => figure(page, 'compare-changed'), { timeout: 30_000 }).toBe(diff.changed.docs);
    expect(await figure(page, 'compare-kept-old')).toBe(diff.kept.old.docs);
    expect(await figure(page, 'compare-kept-new')).toBe(diff.kept.new.docs);
    expect(page.url()).toContain('cmp=saved');
    for (const [i, g] of diff.groups.entries()) {
      const row = page.getByTestId(`compare-group-${i}`);
      expect(await row.getAttribute('data-docs')).toBe(String(g.docs));
      expect(await row.getAttribute('data-from')).toBe(side(g.from));
      expect(await row.getAttribute('data-to')).toBe(side(g.to));
      // A click lists exactly that group's documents, each with its old → new fates.
      await row.click();
      await expect.poll(async () => page.getByTestId('documents-total').getAttribute('data-value'), { timeout: 20_000 }).toBe(String(g.docs));
      await expect.poll(async () => (await page.getByTestId('change-group-chip').getAttribute('data-change')) ?? '').toBe(g.change);
      const rows = await tableRows(page);
      expect([...rows.keys()].sort()).toEqual([...g.sampleIds].sort());
      for (const [id, change] of rows) expect(change, id).toBe(`${side(g.from)} → ${side(g.to)}`);
      expect(page.url()).toContain('grp=');
      if (i === 0) await shot(page, 'e2e13-compare-group');
    }
    // The fate-change filter: every changed document.
    await page.getByTestId('change-group-chip-clear').click();
    await page.getByTestId('filter-change').selectOption('any');
    await expect.poll(async () => page.getByTestId('documents-total').getAttribute('data-value'), { timeout: 20_000 }).toBe(String(diff.changed.docs));
    expect(page.url()).toContain('chg=any');
  });

  it('runs the mix, then shows the run’s page: its manifest, the runs it consumed, and its ledger', async () => {
    const { page, ws } = s;
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('run-mix').click(); // saves the edited recipe, then runs it
    const latest = page.getByTestId('job-latest-state');
    await expect.poll(async () => latest.getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    // Saved: nothing differs from the saved version any more.
    await expect.poll(() => figure(page, 'compare-changed'), { timeout: 30_000 }).toBe(0);
    const jobId = (await latest.getAttribute('data-job-id')) as string;
    await page.getByTestId(`job-${jobId}`).click();
    const manifestEl = page.getByTestId('run-manifest');
    await manifestEl.waitFor({ timeout: 20_000 });
    const onDisk = JSON.parse(readFileSync(join(ws, 'output/demo/.assay/manifest.json'), 'utf8')) as {
      configSha256: string;
      totals: { docs: number; bySource: Record<string, { docs: number }> };
      outputs: { path: string; sha256: string }[];
      parents: { stage: string }[];
    };
    expect(await manifestEl.getAttribute('data-stage')).toBe('mix');
    expect(await manifestEl.getAttribute('data-folder')).toBe('output/demo');
    expect(await page.getByTestId('run-manifest-config-sha').getAttribute('data-value')).toBe(onDisk.configSha256);
    expect(await figure(page, 'run-manifest-docs')).toBe(diff.kept.new.docs);
    expect(onDisk.totals.docs).toBe(diff.kept.new.docs);
    for (const [src, c] of Object.entries(onDisk.totals.bySource)) expect(await page.getByTestId(`run-manifest-source-${src}`).getAttribute('data-docs')).toBe(String(c.docs));
    for (const o of onDisk.outputs) expect(await page.getByTestId('run-manifest-outputs').locator(`tr[data-path="${o.path}"] code.sha`).getAttribute('data-value')).toBe(o.sha256);
    // The chain: the tagger runs it read attributes from, each a link to its own page (and back).
    const stages = await page.locator('[data-testid^="run-chain-"][data-stage]').evaluateAll((els) => els.map((e) => e.getAttribute('data-stage')));
    expect(stages.length).toBeGreaterThanOrEqual(onDisk.parents.length);
    expect(stages).toContain('tag');
    const tagLink = page.locator('[data-testid^="run-chain-"][data-stage="tag"] button').first();
    const tagFolder = (await tagLink.innerText()).trim();
    await tagLink.click();
    await expect.poll(async () => manifestEl.getAttribute('data-folder'), { timeout: 10_000 }).toBe(tagFolder);
    expect(await manifestEl.getAttribute('data-stage')).toBe('tag');
    await page.getByTestId('run-back').click();
    await expect.poll(async () => manifestEl.getAttribute('data-folder'), { timeout: 10_000 }).toBe('output/demo');
    await shot(page, 'e2e13-run-manifest');

    // The ledger: a document the edit dropped, found by id with the rule that dropped it; a kept one with its shard line.
    await page.getByTestId('run-view-ledger').click();
    const dropped = diff.groups[0]!.sampleIds[0]!;
    const search = async (id: string) => {
      await page.getByTestId('ledger-search-key').selectOption('id');
      await page.getByTestId('ledger-search-input').fill(id);
      await page.getByTestId('ledger-search-go').click();
      await expect.poll(async () => page.getByTestId('ledger-match-0').getAttribute('data-id'), { timeout: 20_000 }).toBe(id);
      return page.getByTestId('ledger-match-0');
    };
    const hit = await search(dropped);
    expect(await hit.getAttribute('data-fate')).toBe('excluded');
    // Exclude rules are counted within the stream: rule 6 of the recipe is exclude[6] (the include block is empty).
    expect(await hit.getAttribute('data-exclude')).toBe(String(diff.groups[0]!.to.rule));
    expect(await page.getByTestId('ledger-match-0-fate').innerText()).toContain('word_count');
    const shard = onDisk.outputs[0]!.path;
    const kept = readJsonlFile(join(ws, 'output/demo', shard));
    const keptHit = await search(String(kept[2]!.id));
    expect(await keptHit.getAttribute('data-fate')).toBe('kept');
    expect(await keptHit.locator('td').nth(4).innerText()).toBe(`output/demo/${shard}:3`);
    await shot(page, 'e2e13-ledger');
  });

  it('compares with the past run’s recipe: back to the original text, the diff is the reverse edit', async () => {
    const { page, ws } = s;
    await page.getByTestId('run-view-manifest').click();
    await page.getByTestId('run-compare').click();
    await expect.poll(() => page.getByTestId('compare-target').inputValue()).toBe('run:output/demo');
    await expect.poll(() => figure(page, 'compare-changed'), { timeout: 30_000 }).toBe(0);
    await setEditorText(page, original);
    const back = cliDiff(ws, edited, original);
    await expect.poll(() => figure(page, 'compare-changed'), { timeout: 30_000 }).toBe(back.changed.docs);
    expect(back.changed.docs).toBe(diff.changed.docs);
    expect(page.url()).toContain('cmp=run%3Aoutput%2Fdemo');
    expect(s.consoleErrors).toEqual([]);
  });
});
