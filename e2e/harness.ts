// Shared set-up for the browser e2e specs: a demo (or given) workspace behind `assay serve`, Debian's Chromium, and page helpers.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { startServer, type RunningServer } from '../main/server.js';
import { ensureBuilt, runCli } from '../workers/engine/cli/run-cli.js';
import { REPO_ROOT, tempDir } from '../workers/engine/testing.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
/** The built renderer; `ASSAY_RENDERER_DIR` lets a spec run against another build. */
export const RENDERER_DIR = process.env.ASSAY_RENDERER_DIR ?? join(REPO_ROOT, 'dist/renderer');
/** Screenshots of each changed view, saved by every run (git-ignored). */
export const SHOTS_DIR = join(REPO_ROOT, 'dist/e2e-shots');
export const hasChromium = existsSync(CHROMIUM);

export interface Session {
  /** The workspace folder the server serves. */
  ws: string;
  server: RunningServer;
  browser: Browser;
  page: Page;
  /** Console errors and page errors seen so far. */
  consoleErrors: string[];
  close(): Promise<void>;
}

/**
 * Builds a demo workspace (unless `workspace` is given), serves it and opens a page on it.
 * `colorScheme` sets the emulated system preference.
 */
export async function openSession(opts: { workspace?: string; docs?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Session> {
  ensureBuilt();
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) throw new Error(`${RENDERER_DIR} is not built: run \`npm run build:renderer\` (npm test does)`);
  const tmp = opts.workspace === undefined ? tempDir('assay-e2e-') : undefined;
  let ws = opts.workspace ?? '';
  if (tmp) {
    ws = join(tmp.dir, 'demo');
    const demo = runCli(['demo', '--out', ws, '--docs', String(opts.docs ?? 600), '--quiet']);
    expect(demo.code, demo.stderr).toBe(0);
  }
  const server = await startServer({ workspace: ws, port: 0, rendererDir: RENDERER_DIR });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 }, ...(opts.colorScheme && { colorScheme: opts.colorScheme }) });
  const consoleErrors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  return {
    ws,
    server,
    browser,
    page,
    consoleErrors,
    close: async () => {
      await browser.close().catch(() => undefined);
      await server.close().catch(() => undefined);
      tmp?.cleanup();
    },
  };
}

/** Opens the workbench on a recipe and waits for its first preview. */
export async function openRecipe(page: Page, server: RunningServer, recipe: string): Promise<void> {
  await page.goto(`${server.url}#recipe=${recipe}`);
  await page.getByTestId('total-kept').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => (window as unknown as { __assayEditor?: { getValue(): string } }).__assayEditor?.getValue().includes('streams:'));
}

/** A figure's exact value (the text carries thousands separators). */
export async function figure(page: Page, testId: string): Promise<number> {
  const v = await page.getByTestId(testId).first().getAttribute('data-value');
  if (v === null) throw new Error(`${testId} has no data-value`);
  return Number(v);
}

export async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as { __assayEditor: { getValue(): string } }).__assayEditor.getValue());
}

export async function setEditorText(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => (window as unknown as { __assayEditor: { setValue(s: string): void } }).__assayEditor.setValue(t), text);
}

/** Saves a screenshot of the current view as `dist/e2e-shots/<name>.png`. */
export async function shot(page: Page, name: string): Promise<string> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const path = join(SHOTS_DIR, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/**
 * Drags the histogram's threshold handle by dx pixels. It is grabbed only once its box has stayed put for 300 ms: the
 * chart may still be the previous rule's, or its axis may still widen when the sweep arrives, and a press beside the
 * handle drags nothing (a CI run on a loaded machine failed so). 'inward' drags 80 px towards the chart's middle, where
 * a drag past the axis's end would be clamped into the value it started from.
 */
export async function dragHandle(page: Page, handle: Locator, dx: number | 'inward'): Promise<void> {
  await handle.waitFor({ timeout: 20_000 });
  let last = JSON.stringify(await handle.boundingBox());
  for (let i = 0; ; i++) {
    await page.waitForTimeout(300);
    const now = JSON.stringify(await handle.boundingBox());
    if (now === last && now !== 'null') break;
    if (i === 60) throw new Error(`the threshold handle never settled: ${now}`);
    last = now;
  }
  const box = JSON.parse(last) as { x: number; y: number; width: number; height: number };
  if (dx === 'inward') {
    const chart = await page.getByTestId('histogram').boundingBox();
    if (!chart) throw new Error('the histogram is not visible');
    dx = box.x + box.width / 2 > chart.x + chart.width / 2 ? -80 : 80;
  }
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + dx, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
}

export { REPO_ROOT };
