// Electron smoke test: the real desktop app opens the demo with a live preview and a locked-down page (only where Electron's binary and a display exist).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { _electron as electron } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../workers/engine/cli/run-cli.js';
import { REPO_ROOT, scratchDir } from '../../workers/engine/testing.js';

/** The binary `install-electron` puts in node_modules/electron/dist (absent on machines that cannot download it). */
function electronBinary(): string | undefined {
  const dir = join(REPO_ROOT, 'node_modules/electron');
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) return undefined;
  const bin = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(bin) ? bin : undefined;
}

const BIN = electronBinary();
const DISPLAY = process.platform !== 'linux' || Boolean(process.env.DISPLAY ?? process.env.WAYLAND_DISPLAY);

describe.skipIf(BIN === undefined || !DISPLAY)('Electron app', () => {
  it('opens a workspace, previews the recipe, and exposes only invoke/on to the page', async () => {
    execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-app.mjs')], { stdio: 'inherit' });
    const ws = join(scratchDir('assay-electron-'), 'demo');
    expect(runCli(['demo', '--out', ws, '--docs', '200', '--quiet']).code).toBe(0);
    const app = await electron.launch({
      executablePath: BIN as string,
      args: [join(REPO_ROOT, 'out/main.js'), '--workspace', ws],
      env: { ...process.env, ASSAY_NODE: process.execPath } as Record<string, string>,
    });
    try {
      const win = await app.firstWindow();
      await win.getByTestId('total-kept').waitFor({ timeout: 60_000 });
      expect(await win.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      expect(await win.evaluate(() => Object.keys((window as unknown as { assay: object }).assay).sort())).toEqual(['invoke', 'on']);
      expect(await win.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    } finally {
      await app.close();
    }
  }, 180_000);
});
