// Contamination in the workbench (issue 15, Chromium, browser mode): on a small workspace with hand-written decon attributes, the
// Contamination tab equals `assay decon-report --json`, a top item's document opens in the inspector with the eval item's text beside
// its decon span, and "save report" writes attributes/decon/.assay/decon-report.json. Then a decon job started from the Runs tab
// (its config made from the starter template) fills the tab as `assay decon-report` reads the same attributes.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeconReport } from '../shared/contract/index.js';
import { EVAL_TEXTS, FIXTURE_DOCS, fixtureText, writeDeconFixture } from '../workers/engine/decon/report/fixture.js';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { tempDir, writeJsonl } from '../workers/engine/testing.js';
import { figure, hasChromium, openRecipe, openSession, shot, type Session } from './harness.js';

const RECIPE = `streams:
  - name: clean
    documents: [documents/*]
    attributes: [decon]
    output: {path: output/clean}
    filter:
      exclude:
        - "$.attributes[?(@.decon__decon__items && @.decon__decon__items[0] && @.decon__decon__items[0][2] > 0)]"
`;

let s: Session;
let cleanup = (): void => undefined;

describe.skipIf(!hasChromium)('contamination report and inspector', () => {
  beforeAll(async () => {
    const tmp = tempDir('assay-e2e-decon-');
    cleanup = tmp.cleanup;
    const ws = join(tmp.dir, 'ws');
    writeDeconFixture(ws);
    mkdirSync(join(ws, 'recipes'), { recursive: true });
    writeFileSync(join(ws, 'recipes', 'clean.yaml'), RECIPE);
    const ix = runCli(['index', ws, '--quiet']);
    expect(ix.code, ix.stderr).toBe(0);
    s = await openSession({ workspace: ws });
  }, 300_000);

  afterAll(async () => {
    await s?.close();
    cleanup();
  });

  it('shows each eval set as the CLI reports it, and a top item opens its document with the eval text beside the span', async () => {
    const { page, server, ws } = s;
    const cli = runCli(['decon-report', '--documents', 'documents/*', '--name', 'decon', '--json'], { cwd: ws });
    expect(cli.code, cli.stderr).toBe(0);
    const expected = JSON.parse(cli.stdout) as DeconReport;
    await openRecipe(page, server, 'recipes/clean.yaml');
    // The recipe rule on the decon attributes drops the three contaminated documents.
    await expect.poll(() => figure(page, 'total-kept'), { timeout: 30_000 }).toBe(3);
    await page.getByTestId('tab-decon').click();
    await page.getByTestId('decon-set-mmlu').waitFor({ timeout: 30_000 });
    for (const set of expected.sets) {
      const row = page.getByTestId(`decon-set-${set.set}`);
      expect(Number(await row.getAttribute('data-fraction'))).toBe(set.fraction);
      for (const src of set.bySource) expect(Number(await page.getByTestId(`decon-source-${set.set}-${src.source}`).getAttribute('data-docs'))).toBe(src.docs);
      for (const t of set.top) expect(Number(await page.getByTestId(`decon-item-${t.ref}`).getAttribute('data-docs'))).toBe(t.docs);
    }
    expect(await page.getByTestId('decon-fraction-mmlu').textContent()).toBe('50.0 %');
    await expect.poll(() => page.getByTestId('decon-item-mmlu:q1').textContent()).toContain(EVAL_TEXTS['mmlu']!['q1']!);
    await shot(page, 'decon-report');

    await page.getByTestId('decon-item-mmlu:q1').getByTestId('decon-doc-w3').click();
    await expect.poll(() => page.getByTestId('inspector-doc-id').textContent(), { timeout: 30_000 }).toBe('w3');
    const matches = page.getByTestId('decon-matches');
    await matches.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('decon-match-mmlu:q1').first().textContent()).toContain(EVAL_TEXTS['mmlu']!['q1']!);
    expect(await page.getByTestId('decon-match-gsm8k:7').first().textContent()).toContain(EVAL_TEXTS['gsm8k']!['7']!);
    // Each span with the item it quotes beside it.
    const w3 = fixtureText(FIXTURE_DOCS.find((d) => d.id === 'w3')!);
    for (const [set, id] of [['gsm8k', '7'], ['mmlu', 'q1']] as const) {
      const pair = page.getByTestId(`decon-pair-${w3.indexOf(EVAL_TEXTS[set]![id]!)}`);
      expect(await pair.getAttribute('data-refs')).toBe(`${set}:${id}`);
      expect(await pair.locator('.decon-doc').textContent()).toBe(EVAL_TEXTS[set]![id]);
    }
    // The decon spans mark exactly the planted eval texts in the document.
    const marked = await page.locator('[data-testid="inspector-text"] mark[data-keys~="decon__decon__overlap"]').allTextContents();
    expect(marked).toEqual([EVAL_TEXTS['gsm8k']!['7'], EVAL_TEXTS['mmlu']!['q1']]);
    await shot(page, 'decon-inspector');

    await page.getByTestId('decon-save').click();
    await page.getByTestId('decon-written').waitFor({ timeout: 30_000 });
    const file = join(ws, 'attributes/decon/.assay/decon-report.json');
    expect(existsSync(file)).toBe(true);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as DeconReport;
    expect(saved.sets.map((x) => [x.set, x.fraction, x.docs])).toEqual(expected.sets.map((x) => [x.set, x.fraction, x.docs]));
    expect(s.consoleErrors).toEqual([]);
  }, 180_000);
});

describe.skipIf(!hasChromium)('a decon job from the Runs tab', () => {
  let r: Session;
  let done = (): void => undefined;

  beforeAll(async () => {
    const tmp = tempDir('assay-e2e-decon-job-');
    done = tmp.cleanup;
    const ws = join(tmp.dir, 'ws');
    // The fixture's documents only: the job writes the attributes.
    writeDeconFixture(ws, { items: false });
    rmSync(join(ws, 'attributes'), { recursive: true });
    // The eval file the starter names, with the fixture's MMLU items.
    writeJsonl(join(ws, 'evals/my_eval.jsonl'), Object.entries(EVAL_TEXTS['mmlu']!).map(([id, question]) => ({ id, question })));
    r = await openSession({ workspace: ws });
  }, 300_000);

  afterAll(async () => {
    await r?.close();
    done();
  });

  it('makes a decon config from the starter, runs it, and the Contamination tab shows what it found', async () => {
    const { page, server, ws } = r;
    await page.goto(server.url);
    await page.getByTestId('tab-runs').click();
    await page.getByTestId('run-kind').selectOption('decon');
    await page.getByTestId('run-new-config').click();
    const picker = page.getByTestId('run-template-template');
    await expect.poll(() => picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), { timeout: 10_000 }).toContain('decon');
    await picker.selectOption('decon');
    await expect.poll(() => page.getByTestId('run-template-name').inputValue(), { timeout: 10_000 }).toBe('configs/decon.yaml');
    await page.getByTestId('run-template-create').click();
    await expect.poll(() => page.getByTestId('run-config').inputValue(), { timeout: 10_000 }).toBe('configs/decon.yaml');
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.getByTestId('job-latest-state').textContent(), { timeout: 20_000 }).toMatch(/decon/);
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 120_000 }).toBe('done');

    const cli = runCli(['decon-report', '--documents', 'documents/*', '--name', 'decon', '--json'], { cwd: ws });
    expect(cli.code, cli.stderr).toBe(0);
    const expected = JSON.parse(cli.stdout) as DeconReport;
    // q1 and q2 are planted and long enough for 13-grams (q3 and q4 are shorter): 2 of 4 items, in 3 documents.
    expect(expected.sets.map((x) => [x.set, x.hitItems, x.items, x.docs])).toEqual([['my_eval', 2, 4, 3]]);
    await page.getByTestId('tab-decon').click();
    const row = page.getByTestId('decon-set-my_eval');
    await row.waitFor({ timeout: 30_000 });
    expect(Number(await row.getAttribute('data-fraction'))).toBe(expected.sets[0]!.fraction);
    expect(await page.getByTestId('decon-fraction-my_eval').textContent()).toBe('50.0 %');
    await shot(page, 'decon-job');
    expect(r.consoleErrors).toEqual([]);
  }, 240_000);
});
