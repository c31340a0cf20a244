// Issue 11's view items in Debian's Chromium: honest token figures, rule labels, span groups, per-source totals, search, export, sub-rules, dark mode.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { readJsonlFile, tempDir, writeJsonl } from '../workers/engine/testing.js';
import { dragHandle, editorText, figure, hasChromium, openRecipe, openSession, REPO_ROOT, setEditorText, shot, type Session } from './harness.js';
import { parseCsv } from '../shared/csv-read.js';

interface CliRule {
  index: number;
  expression: string;
  label?: string;
  sequential: { docs: number; tokens: number };
}
interface CliPreview {
  total: { docs: number; kept: { docs: number; bySource: Record<string, { docs: number }> }; dropped: { docs: number; bySource: Record<string, { docs: number }> } };
  rules: (CliRule & { subRules?: { key: string; label: string; op?: string; threshold?: number }[] })[];
  tokens: { kind: string; note: string };
}

interface CliExplain {
  reason: string;
  droppedBy?: number;
  rules: { index: number; because?: { key: string; text: string }[] }[];
}

/** `assay preview --json` on a workspace's recipe, run from the workspace (as the app's jobs are). */
function cliPreview(ws: string, recipe: string): CliPreview {
  const r = runCli(['preview', '-c', recipe, '--index', '.', '--json'], { cwd: ws });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as CliPreview;
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
    expect(await page.getByTestId('sources-tokens-heading').innerText()).toBe('est. tokens');
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

  it('17: the table exports (every matching row) as CSV with the chosen columns, or as JSONL ids, to a workspace file', async () => {
    const { page } = s;
    const key = 'gopher_rules__gopher_v1__word_count';
    await page.getByTestId('filter-source').selectOption('\u0000');
    await page.getByTestId('filter-fate').selectOption('dropped');
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 10_000 }).toBe(cli.total.dropped.docs);
    await page.getByTestId('column-picker').locator('summary').click();
    await page.getByTestId(`column-toggle-${key}`).check();
    await page.getByTestId('column-picker').locator('summary').click();
    await page.getByTestId('export-control').locator('summary').click();
    expect(await page.getByTestId('export-with-columns').isChecked()).toBe(true);
    await page.getByTestId('export-path').fill('exports/dropped.csv');
    await page.getByTestId('export-run').click();
    const result = page.getByTestId('export-result');
    await expect.poll(() => result.getAttribute('data-path'), { timeout: 20_000 }).toBe('exports/dropped.csv');
    expect(Number(await result.getAttribute('data-rows'))).toBe(cli.total.dropped.docs);
    expect(await result.innerText()).toContain(`wrote ${cli.total.dropped.docs} rows`);
    const csv = parseCsv(readFileSync(join(s.ws, 'exports/dropped.csv'), 'utf8'));
    const head = csv[0] as string[];
    expect(head[0]).toBe('id');
    expect(head).toContain(key);
    expect(csv).toHaveLength(cli.total.dropped.docs + 1);
    expect(new Set(csv.slice(1).map((r) => r[head.indexOf('fate')]))).toEqual(new Set(['dropped']));
    expect(csv.slice(1).every((r) => r[head.indexOf(key)] !== '' && Number.isFinite(Number(r[head.indexOf(key)])))).toBe(true);
    await shot(page, 'e2e2-17-export');

    // JSONL, ids only: the same rows, no attribute values.
    await page.getByTestId('export-format').selectOption('jsonl');
    expect(await page.getByTestId('export-path').inputValue()).toBe('exports/dropped.jsonl');
    await page.getByTestId('export-ids-only').check();
    await page.getByTestId('export-run').click();
    await expect.poll(() => result.getAttribute('data-path'), { timeout: 20_000 }).toBe('exports/dropped.jsonl');
    const lines = readFileSync(join(s.ws, 'exports/dropped.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; values?: unknown });
    expect(lines.map((l) => l.id)).toEqual(csv.slice(1).map((r) => r[0]));
    expect(lines.some((l) => l.values !== undefined)).toBe(false);

    // A path outside the workspace is refused, and said so.
    await page.getByTestId('export-path').fill('../outside.jsonl');
    await page.getByTestId('export-run').click();
    await expect.poll(() => page.getByTestId('export-error').innerText(), { timeout: 10_000 }).toMatch(/outside|escape|workspace/i);
    await page.getByTestId('export-control').locator('summary').click();
    await page.getByTestId('column-picker').locator('summary').click();
    await page.getByTestId(`column-toggle-${key}`).uncheck();
    await page.getByTestId('column-picker').locator('summary').click();
  });

  it('16: search is debounced, combines with the fate filter, lives in the URL, and its matches are marked in the inspector', async () => {
    const { page } = s;
    const word = 'contact';
    // What FTS5's unicode61 tokenizer finds: the word between non-alphanumerics, any case.
    const texts = readdirSync(join(s.ws, 'documents'))
      .filter((f) => f.endsWith('.gz'))
      .flatMap((f) => readJsonlFile(join(s.ws, 'documents', f)));
    const hits = texts.filter((d) => new RegExp(`(^|[^\\p{L}\\p{N}])${word}($|[^\\p{L}\\p{N}])`, 'iu').test(String(d.text))).map((d) => String(d.id));
    const ids = runCli(['preview', '-c', 'recipes/demo.yaml', '--index', '.', '--json', '--ids'], { cwd: s.ws });
    const kept = new Set((JSON.parse(ids.stdout) as { kept_ids: string[] }).kept_ids);
    const keptHits = hits.filter((id) => kept.has(id)).length;
    expect(hits.length).toBeGreaterThan(keptHits);
    expect(keptHits).toBeGreaterThan(0);

    // Every request the page sends from now on (the socket is open already, so its send is watched in the page):
    // typing letter by letter must ask for the whole word only.
    await page.evaluate(() => {
      const w = window as unknown as { __sent: string[] };
      w.__sent = [];
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (this: WebSocket, data: string) {
        w.__sent.push(String(data));
        return send.call(this, data);
      };
    });
    const searchesSent = async (): Promise<string[]> =>
      (await page.evaluate(() => (window as unknown as { __sent: string[] }).__sent)).flatMap((f) => {
        const m = /"method":"documents\.page".*?"search":"([^"]*)"/.exec(f);
        return m ? [m[1] as string] : [];
      });
    await page.getByTestId('filter-fate').selectOption('');
    await page.getByTestId('filter-source').selectOption('\u0000');
    await page.getByTestId('doc-search').click();
    await page.keyboard.type(word, { delay: 40 });
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 10_000 }).toBe(hits.length);
    expect(new Set(await searchesSent())).toEqual(new Set([word]));
    await page.getByTestId('filter-fate').selectOption('kept');
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 10_000 }).toBe(keptHits);
    await expect.poll(() => page.evaluate(() => location.hash)).toMatch(new RegExp(`(^#|&)q=${word}(&|$)`));
    expect(await page.evaluate(() => location.hash)).toMatch(/fate=kept/);

    const row = page.getByTestId('doc-row-0');
    await row.click();
    const marks = page.getByTestId('search-match');
    await expect.poll(() => marks.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(new Set((await marks.allInnerTexts()).map((t) => t.toLowerCase()))).toEqual(new Set([word]));
    expect(await figure(page, 'search-match-count')).toBeGreaterThan(0);
    // The first match is scrolled into the inspector's view.
    await expect.poll(() => marks.first().evaluate((m) => {
      const pane = (m.closest('.inspector-body') as HTMLElement).getBoundingClientRect();
      const r = m.getBoundingClientRect();
      return r.top >= pane.top && r.bottom <= pane.bottom;
    })).toBe(true);
    await shot(page, 'e2e2-16-search');

    // A shared link restores the search with the other filters.
    await page.reload();
    await page.getByTestId('total-kept').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('doc-search').inputValue()).toBe(word);
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 20_000 }).toBe(keptHits);
    await page.getByTestId('doc-search-clear').click();
    await page.getByTestId('filter-fate').selectOption('');
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 10_000 }).toBe(texts.length);
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

/**
 * A small corpus for FineWeb's chain: varied prose that passes, pages Gopher's repetition filter drops, pages too short
 * for Gopher's quality filter. Ids are long (URL-like), as in real crawls, so the inspector must not cut them.
 */
function finewebCorpus(): { id: string; text: string; metadata: { url: string } }[] {
  const vocab = 'river town people market morning evening bridge garden school teacher children family winter summer history museum library window kitchen station harbor island forest village mountain valley weather painter author doctor farmer student council newspaper company engine journey letter story'.split(' ');
  let seed = 11;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const sentence = (): string => `${Array.from({ length: 8 + next(6) }, () => vocab[next(vocab.length)]).join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
  // Gopher counts distinct stop words: each paragraph carries a few.
  const para = (n: number): string => [...Array.from({ length: n }, sentence), 'The story of the town and the river is told with care, and that is what they have.'].join(' ');
  const long = (kind: string, i: number) => `https://www.northwind-archive.example/collections/2024/05/${kind}/articles-about-rivers-towns-and-markets/page-${String(i).padStart(4, '0')}.html`;
  const docs: { id: string; text: string; metadata: { url: string } }[] = [];
  for (let i = 0; i < 24; i++) docs.push({ id: long('prose', i), text: `${para(6 + next(4))}\n${para(5 + next(4))}\n${para(5)}`, metadata: { url: long('prose', i) } });
  for (let i = 0; i < 6; i++) docs.push({ id: long('repetitive', i), text: `${para(3)}\n${'Buy now and save big today.\n'.repeat(20 + i * 5)}${para(2)}`, metadata: { url: long('repetitive', i) } });
  for (let i = 0; i < 4; i++) docs.push({ id: long('short', i), text: 'Too short to keep.', metadata: { url: long('short', i) } });
  return docs;
}

describe.skipIf(!hasChromium)('views e2e on a FineWeb-tagged workspace (issue 11: 10, 13, 16)', () => {
  let s: Session;
  let tmp: ReturnType<typeof tempDir>;
  let ws = '';
  let cli: CliPreview;
  let rep: CliPreview['rules'][number];
  const DUP_LINE = 'fineweb__gopher_repetition__dup_line_frac';

  beforeAll(async () => {
    tmp = tempDir('assay-e2e-fw-');
    ws = join(tmp.dir, 'fw');
    writeJsonl(join(ws, 'documents/part-0.jsonl.gz'), finewebCorpus());
    // configs/fineweb.yaml with its globs pointed at this workspace's documents/ (tagged and indexed from the workspace).
    mkdirSync(join(ws, 'recipes'), { recursive: true });
    writeFileSync(join(ws, 'recipes/fineweb.yaml'), readFileSync(join(REPO_ROOT, 'configs/fineweb.yaml'), 'utf8').replaceAll('dataset/documents/', 'documents/'));
    // The index without its search table (`--no-search`), as an index from before search was built would be.
    for (const args of [['tag', '-c', 'recipes/fineweb.yaml', '--quiet'], ['index', '.', '--quiet', '--no-search']]) {
      const r = runCli(args, { cwd: ws });
      expect(r.code, `assay ${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    cli = cliPreview(ws, 'recipes/fineweb.yaml');
    rep = cli.rules.find((r) => r.expression.includes('gopher_repetition__kept')) as CliPreview['rules'][number];
    expect(rep.sequential.docs).toBeGreaterThan(0);
    expect(rep.subRules?.some((x) => x.key === DUP_LINE)).toBe(true);
    s = await openSession({ workspace: ws });
    await openRecipe(s.page, s.server, 'recipes/fineweb.yaml');
    await waitFigure(s.page, 'total-kept', cli.total.kept.docs);
  }, 240_000);
  afterAll(async () => {
    await s?.close();
    tmp?.cleanup();
  });

  it('10: the table and the explanation name the failing sub-rule with its value and threshold', async () => {
    const { page } = s;
    await page.getByTestId('filter-fate').selectOption(`rule:${rep.index}`);
    const row = page.getByTestId('doc-row-0');
    await expect.poll(() => row.getAttribute('data-dropped-by'), { timeout: 20_000 }).toBe(String(rep.index));
    const id = (await row.getAttribute('data-doc-id')) as string;
    const r = runCli(['explain', '-c', 'recipes/fineweb.yaml', '--index', '.', '--id', id, '--json'], { cwd: ws });
    expect(r.code, r.stderr).toBe(0);
    const ex = JSON.parse(r.stdout) as CliExplain;
    const because = ex.rules.find((v) => v.index === rep.index)?.because ?? [];
    expect(because.map((b) => b.key)).toContain(DUP_LINE);
    // The table's "why": the failing sub-rule, value and threshold (e.g. "duplicated line fraction 0.864 > 0.3").
    const why = await row.locator('[data-col="why"]').innerText();
    expect(why).toContain(because[0]?.text);
    expect(why).toMatch(/duplicated line fraction \d\.\d+ > 0\.3/);
    await row.click();
    await expect.poll(() => page.getByTestId('inspector-doc-id').innerText(), { timeout: 10_000 }).toBe(id);
    await expect.poll(() => page.getByTestId('inspector-explanation').innerText(), { timeout: 10_000 }).toBe(ex.reason);
    expect(await page.getByTestId('inspector-because').locator('li').allInnerTexts()).toEqual(because.map((b) => b.text));
    await shot(page, 'e2e2-10-explanation');
  });

  it('13: the inspector shows a long document id whole, and copies it', async () => {
    const { page } = s;
    const idEl = page.getByTestId('inspector-doc-id');
    const id = await idEl.innerText();
    expect(id.length).toBeGreaterThan(120);
    expect(await idEl.getAttribute('title')).toBe(id);
    expect(await idEl.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && el.getBoundingClientRect().right <= (el.closest('.panel') as HTMLElement).getBoundingClientRect().right)).toBe(true);
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.server.url });
    await page.getByTestId('inspector-copy-id').click();
    await expect.poll(() => page.getByTestId('inspector-copy-id').getAttribute('data-state')).toBe('copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    await shot(page, 'e2e2-13-long-id');
  });

  it('10: the histograms offer the flag’s sub-rule values: the tagger’s threshold fixed, draggable once a rule compares the value', async () => {
    const { page } = s;
    await page.getByTestId('tab-distributions').click();
    const select = page.getByTestId('sweep-rule-select');
    // The 0/1 flag is not offered; its sub-rules are, by the tagger's test.
    expect(await select.locator(`option[value="${rep.index}"]`).count()).toBe(0);
    const group = select.locator('optgroup', { has: page.locator(`option[value="sub:${rep.index}:${DUP_LINE}"]`) });
    expect(await group.locator('option').count()).toBe(rep.subRules?.length);
    expect(await group.locator(`option[value="sub:${rep.index}:${DUP_LINE}"]`).innerText()).toBe('duplicated line fraction > 0.3');
    await select.selectOption(`sub:${rep.index}:${DUP_LINE}`);
    await expect.poll(() => page.getByTestId('histogram').getAttribute('data-key'), { timeout: 10_000 }).toBe(DUP_LINE);
    expect(await page.getByTestId('histogram-fixed-threshold').getAttribute('data-value')).toBe('0.3');
    expect(await page.getByTestId('histogram-threshold-handle').count()).toBe(0);
    expect(await page.getByTestId('subrule-note').getAttribute('data-tunable')).toBe('false');
    const snippet = await page.getByTestId('subrule-snippet').innerText();
    expect(snippet).toBe(`- "$.attributes[?(@.${DUP_LINE} && @.${DUP_LINE}[0] && @.${DUP_LINE}[0][2] > 0.3)]"`);
    await shot(page, 'e2e2-10-subrule-fixed');

    // The user pastes the offered rule under the flag rule: the same threshold becomes a handle.
    const text = await editorText(page);
    const flagLine = text.split('\n').find((l) => l.includes('gopher_repetition__kept')) as string;
    const indent = flagLine.slice(0, flagLine.indexOf('-'));
    await setEditorText(page, text.replace(`${flagLine}\n`, `${flagLine}\n${indent}${snippet}\n`));
    const handle = page.getByTestId('histogram-threshold-handle');
    await handle.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('subrule-note').getAttribute('data-tunable')).toBe('true');
    expect(Number(await handle.getAttribute('data-value'))).toBe(0.3);
    expect(await page.getByTestId('histogram-fixed-threshold').count()).toBe(0);
    await dragHandle(page, handle, 60);
    await expect.poll(async () => Number(await handle.getAttribute('data-value')), { timeout: 10_000 }).toBeGreaterThan(0.3);
    const moved = await handle.getAttribute('data-value');
    expect(await editorText(page)).toContain(`@.${DUP_LINE}[0][2] > ${moved})]`);
    await shot(page, 'e2e2-10-subrule-draggable');
  });

  it('16: without a search table, a search says so and how to build it; building it from there makes the search work', async () => {
    const { page } = s;
    await page.getByTestId('filter-fate').selectOption('');
    await page.getByTestId('doc-search').fill('buy');
    await page.getByTestId('doc-search').press('Enter');
    const err = page.getByTestId('search-error');
    await err.waitFor({ timeout: 10_000 });
    expect(await err.getAttribute('data-no-table')).toBe('true');
    const text = await err.innerText();
    expect(text).toMatch(/no search table/);
    expect(text).toMatch(/assay index/);
    await shot(page, 'e2e2-16-no-search-table');
    await page.getByTestId('search-build').click();
    // The index job builds the search table; the table then answers the search (the repetitive pages say "buy").
    await expect.poll(() => figure(page, 'documents-total').catch(() => -1), { timeout: 120_000 }).toBe(6);
    expect(await err.count()).toBe(0);
  });
});
