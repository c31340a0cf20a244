// Issue 11's view items in Debian's Chromium: honest token figures, rule labels, span groups, per-source totals, search, export, sub-rules, dark mode.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { figure, hasChromium, openRecipe, openSession, shot, type Session } from './harness.js';

interface CliRule {
  index: number;
  expression: string;
  label?: string;
  sequential: { docs: number; tokens: number };
}
interface CliPreview {
  total: { docs: number; kept: { docs: number; bySource: Record<string, { docs: number }> }; dropped: { docs: number; bySource: Record<string, { docs: number }> } };
  rules: CliRule[];
  tokens: { kind: string; note: string };
}

/** `assay preview --json` on a workspace's recipe, run from the workspace (as the app's jobs are). */
function cliPreview(ws: string, recipe: string): CliPreview {
  const r = runCli(['preview', '-c', recipe, '--index', '.', '--json'], { cwd: ws });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as CliPreview;
}

/** RFC 4180 rows (what the renderer's CSV writer writes: CRLF line ends, doubled quotes). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  return rows;
}

/** Waits until a figure shows `value` (usable in set-up, where expect.poll is not). */
async function waitFigure(page: Page, testId: string, value: number, timeout = 30_000): Promise<void> {
  await page.waitForFunction(([id, v]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value') === String(v), [testId, value] as const, { timeout });
}

describe.skipIf(!hasChromium)('views e2e on the demo (issue 11: 4, 12, 13, 15, 17)', () => {
  let s: Session;
  let cli: CliPreview;
  beforeAll(async () => {
    s = await openSession({ docs: 600 });
    cli = cliPreview(s.ws, 'recipes/demo.yaml');
    await openRecipe(s.page, s.server, 'recipes/demo.yaml');
    await waitFigure(s.page, 'total-kept', cli.total.kept.docs);
  }, 240_000);
  afterAll(async () => s?.close());

  it('4: every token figure is marked as an estimate with the host’s note; document counts stay exact', async () => {
    const { page } = s;
    expect(cli.tokens.kind).toBe('estimate');
    const note = cli.tokens.note;
    expect(note).toMatch(/⌈UTF-8 bytes \/ 4⌉/);
    // The totals: the heading, and each token figure (≈, the note on hover, never "exact").
    expect(await page.getByTestId('totals-tokens-heading').innerText()).toBe('est. tokens');
    for (const id of ['total-tokens', 'total-kept-tokens', 'total-dropped-tokens', 'rule-0-sequential-tokens', 'source-total-web-kept-tokens']) {
      const el = page.getByTestId(id).first();
      expect(await el.getAttribute('data-estimate'), id).toBe('true');
      expect(await el.innerText(), id).toMatch(/^≈/);
      const title = (await el.getAttribute('title')) ?? '';
      expect(title, id).toContain(note);
      expect(title, id).not.toMatch(/exact/);
    }
    const kept = page.getByTestId('total-kept');
    expect(await kept.getAttribute('title')).toBe('exact: every indexed document');
    expect(await kept.innerText()).not.toMatch(/≈/);
    // No token figure anywhere on the page claims to be exact.
    const exactTokens = await page.locator('[data-testid$="-tokens"]').evaluateAll((els) => els.filter((e) => /exact/.test(e.getAttribute('title') ?? '')).length);
    expect(exactTokens).toBe(0);
    // The waterfall's token measure and the table's token column say so too.
    expect(await page.locator('label', { has: page.getByTestId('waterfall-measure-tokens') }).innerText()).toContain('est. tokens');
    await page.getByTestId('doc-row-0').waitFor();
    expect(await page.getByTestId('doc-col-tokens').innerText()).toBe('est. tokens');
    const cell = page.getByTestId('doc-row-0').locator('[data-col="tokens"]');
    expect(await cell.innerText()).toMatch(/^≈\d/);
    await shot(page, 'e2e2-4-tokens');
  });

  it('12: each rule is named by its label everywhere, with the full expression on hover', async () => {
    const { page } = s;
    const byKey = (k: string) => cli.rules.find((r) => r.expression.includes(k)) as CliRule;
    const ratio = byKey('symbol_to_word_ratio');
    const words = byKey('gopher_v1__word_count');
    // The case: two Gopher rules whose expressions start the same.
    expect(ratio.expression.slice(0, 30)).toBe(words.expression.slice(0, 30));
    const labels: string[] = [];
    for (const r of [ratio, words]) {
      const el = page.getByTestId(`rule-${r.index}-label`);
      const text = await el.innerText();
      labels.push(text);
      expect(text.startsWith('$.attributes')).toBe(false);
      if (r.label) expect(text).toBe(r.label);
      expect(await el.getAttribute('title')).toContain(r.expression);
    }
    expect(labels[0]).not.toBe(labels[1]);
    const [ratioLabel, wordsLabel] = labels as [string, string];
    // The waterfall (its bars, in words), the fate filter, the Distributions dropdown.
    const waterfall = (await page.getByTestId('waterfall').getAttribute('aria-label')) ?? '';
    expect(waterfall).toContain(`#${ratio.index} ${ratioLabel}`);
    expect(waterfall).toContain(`#${words.index} ${wordsLabel}`);
    const fateOption = page.getByTestId('filter-fate').locator(`option[value="rule:${words.index}"]`);
    expect(await fateOption.innerText()).toBe(`dropped by rule ${words.index} · ${wordsLabel}`);
    expect(await fateOption.getAttribute('title')).toContain(words.expression);
    const sweepOption = page.getByTestId('sweep-rule-select').locator(`option[value="${words.index}"]`);
    expect(await sweepOption.innerText()).toBe(`#${words.index} ${wordsLabel}`);
    // The explanation of a document the rule drops names it the same way.
    await page.getByTestId('filter-fate').selectOption(`rule:${words.index}`);
    const row = page.getByTestId('doc-row-0');
    await expect.poll(() => row.getAttribute('data-dropped-by'), { timeout: 20_000 }).toBe(String(words.index));
    await row.click();
    await expect.poll(() => page.getByTestId('inspector-fate').getAttribute('data-dropped-by'), { timeout: 10_000 }).toBe(String(words.index));
    expect(await page.getByTestId(`verdict-${words.index}-label`).innerText()).toBe(wordsLabel);
    expect(await page.getByTestId(`verdict-${ratio.index}-label`).innerText()).toBe(ratioLabel);
    expect(await page.getByTestId('inspector-decisive-rule').innerText()).toBe(`rule ${words.index}: ${wordsLabel}`);
    await shot(page, 'e2e2-12-labels');
  });

  it('13: the verdict table shows every expression whole', async () => {
    const { page } = s;
    // A dropped document: its verdicts are open.
    await page.getByTestId('filter-fate').selectOption('dropped');
    const row = page.getByTestId('doc-row-0');
    await expect.poll(() => row.getAttribute('data-fate'), { timeout: 20_000 }).toBe('dropped');
    await row.click();
    await expect.poll(() => page.getByTestId('inspector-fate').getAttribute('data-fate'), { timeout: 10_000 }).toBe('dropped');
    await page.getByTestId('inspector-verdicts').waitFor();
    const cut = await page.getByTestId('inspector-verdicts').evaluate((table) => {
      const pane = table.closest('.inspector-body') as HTMLElement;
      const exprs = Array.from(table.querySelectorAll<HTMLElement>('.expr, .rule-label, .kv'));
      return { tableFits: table.scrollWidth <= pane.clientWidth, cut: exprs.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent) };
    });
    expect(cut).toEqual({ tableFits: true, cut: [] });
    const verdictExpr = await page.locator('[data-testid$="-expr"]').first().innerText();
    expect(cli.rules.map((r) => r.expression)).toContain(verdictExpr);
    await shot(page, 'e2e2-13-verdicts');
  });

  it('13: span-level sets start on, document-wide ones off, so PII spans are not painted over', async () => {
    const { page } = s;
    const email = cli.rules.find((r) => r.expression.includes('EMAIL_ADDRESS')) as CliRule;
    await page.getByTestId('filter-fate').selectOption(`redacted:${email.index}`);
    const row = page.getByTestId('doc-row-0');
    await expect.poll(() => row.getAttribute('data-redacted-by'), { timeout: 20_000 }).toContain(String(email.index));
    await row.click();
    await page.getByTestId('inspector-view-spans').click();
    await page.getByTestId('span-set-pii').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('span-set-pii').getAttribute('data-shown')).toBe('true');
    // Per-paragraph lengths and document scores cover the whole text: listed, but off.
    for (const id of ['span-set-stats-doc', 'span-set-pii-doc']) expect(await page.getByTestId(id).getAttribute('data-shown'), id).toBe('false');
    const painted = await page.getByTestId('inspector-text').locator('mark.span').evaluateAll((ms) => ms.map((m) => m.getAttribute('data-keys') ?? ''));
    expect(painted.some((k) => k.includes('EMAIL_ADDRESS'))).toBe(true);
    expect(painted.filter((k) => /stats__|doc_count|gopher_rules__|lang__/.test(k))).toEqual([]);
    await shot(page, 'e2e2-13-spans');
    // Turned on, the whole-text group paints the text (the user's choice, kept for the next document).
    await page.getByTestId('span-set-stats-doc').locator('input').check();
    await expect.poll(() => page.getByTestId('inspector-text').locator('mark.span[data-keys*="stats__"]').count()).toBeGreaterThan(0);
    await page.getByTestId('span-set-stats-doc').locator('input').uncheck();
  });

  it('15: kept and dropped totals per source, as the CLI prints them; a figure lists that source', async () => {
    const { page } = s;
    const sources = Object.keys(cli.total.kept.bySource).concat(Object.keys(cli.total.dropped.bySource));
    expect(new Set(sources).size).toBeGreaterThan(1);
    for (const src of new Set(sources)) {
      expect(await figure(page, `source-total-${src}-kept`), src).toBe(cli.total.kept.bySource[src]?.docs ?? 0);
      expect(await figure(page, `source-total-${src}-dropped`), src).toBe(cli.total.dropped.bySource[src]?.docs ?? 0);
    }
    await page.getByTestId('source-total-web-dropped').click();
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 10_000 }).toBe(cli.total.dropped.bySource.web?.docs);
    expect(await page.getByTestId('filter-source').inputValue()).toBe('web');
    expect(await page.getByTestId('filter-fate').inputValue()).toBe('dropped');
    await shot(page, 'e2e2-15-source-totals');
  });

  it('17: the preview’s per-rule table downloads as CSV, with the figures on screen', async () => {
    const { page } = s;
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('rules-export-csv').click()]);
    expect(download.suggestedFilename()).toBe('preview-rules.csv');
    const path = await download.path();
    const rows = parseCsv(readFileSync(path, 'utf8'));
    const header = rows[0] as string[];
    const col = (name: string) => header.indexOf(name);
    const overall = rows.slice(1).filter((r) => r[col('source')] === '');
    expect(overall.map((r) => Number(r[col('rule')]))).toEqual(cli.rules.map((r) => r.index));
    for (const r of overall) {
      const i = Number(r[col('rule')]);
      expect(Number(r[col('sequential_docs')])).toBe(await figure(page, `rule-${i}-sequential-docs`));
      expect(Number(r[col('alone_docs')])).toBe(await figure(page, `rule-${i}-alone-docs`));
      expect(r[col('label')]).toBe(await page.getByTestId(`rule-${i}-label`).innerText());
      expect(r[col('tokens_kind')]).toBe('estimate');
    }
    // Per-source rows add up to the rule's figure.
    const first = cli.rules[0] as CliRule;
    const perSource = rows.slice(1).filter((r) => Number(r[col('rule')]) === first.index && r[col('source')] !== '');
    expect(perSource.reduce((a, r) => a + Number(r[col('sequential_docs')]), 0)).toBe(first.sequential.docs);
  });
});


describe.skipIf(!hasChromium)('views e2e in a dark system (issue 11: 18)', () => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession({ docs: 200, colorScheme: 'dark' });
    await openRecipe(s.page, s.server, 'recipes/demo.yaml');
  }, 240_000);
  afterAll(async () => s?.close());

  /** What the page, the editor and the chart tooltip are drawn in: background luminance 0 (black) … 1 (white). */
  const look = (page: Page) =>
    page.evaluate(() => {
      const lum = (css: string): number => {
        const m = css.match(/\d+(\.\d+)?/g)?.map(Number) ?? [0, 0, 0];
        return (0.2126 * (m[0] ?? 0) + 0.7152 * (m[1] ?? 0) + 0.0722 * (m[2] ?? 0)) / 255;
      };
      const bg = (sel: string) => {
        const el = document.querySelector(sel);
        return el ? lum(getComputedStyle(el).backgroundColor) : null;
      };
      return { theme: document.documentElement.dataset.theme, panel: bg('.panel'), editor: bg('.monaco-editor .monaco-editor-background'), stored: localStorage.getItem('assay.theme') };
    });

  /** The waterfall's tooltip background (ECharts draws it from the theme's palette). */
  async function tooltipLum(page: Page): Promise<number> {
    const chart = page.getByTestId('waterfall');
    await chart.scrollIntoViewIfNeeded();
    const box = await chart.boundingBox();
    if (!box) throw new Error('the waterfall is not visible');
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.5, { steps: 4 });
    const tip = chart.locator('div[style*="background-color"]').last();
    await tip.waitFor({ state: 'visible', timeout: 5000 });
    const css = await tip.evaluate((e) => getComputedStyle(e).backgroundColor);
    await page.mouse.move(0, 0);
    const m = css.match(/\d+/g)?.map(Number) ?? [0, 0, 0];
    return (0.2126 * (m[0] ?? 0) + 0.7152 * (m[1] ?? 0) + 0.0722 * (m[2] ?? 0)) / 255;
  }

  it('18: follows the system’s dark scheme, with a light/dark/system toggle that persists; editor and charts follow', async () => {
    const { page } = s;
    await page.locator('.monaco-editor').waitFor({ timeout: 30_000 });
    let v = await look(page);
    expect(v.theme).toBe('dark');
    expect(v.panel).toBeLessThan(0.2);
    expect(v.editor).toBeLessThan(0.2);
    expect(await tooltipLum(page)).toBeLessThan(0.25);
    await shot(page, 'e2e2-18-dark');

    await page.getByTestId('theme-select').selectOption('light');
    await expect.poll(async () => (await look(page)).theme).toBe('light');
    v = await look(page);
    expect(v.panel).toBeGreaterThan(0.8);
    expect(v.editor).toBeGreaterThan(0.8);
    expect(v.stored).toBe('light');
    expect(await tooltipLum(page)).toBeGreaterThan(0.8);
    await shot(page, 'e2e2-18-light');

    // The choice outlives a reload, against the system's dark preference.
    await page.reload();
    await page.locator('.monaco-editor').waitFor({ timeout: 30_000 });
    v = await look(page);
    expect(v.theme).toBe('light');
    expect(v.panel).toBeGreaterThan(0.8);
    expect(await page.getByTestId('theme-select').inputValue()).toBe('light');

    // Back to "system": dark again, and it follows the system live.
    await page.getByTestId('theme-select').selectOption('system');
    await expect.poll(async () => (await look(page)).theme).toBe('dark');
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(async () => (await look(page)).theme).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await look(page)).theme).toBe('dark');
    expect(s.consoleErrors).toEqual([]);
  });
});
