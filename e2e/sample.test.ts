// Issue 18 in Debian's Chromium: a workspace above the sampling bound previews a sample (≈ figures with intervals); "Exact figures" counts every document in a job.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewResult } from '../shared/contract/index.js';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { figure, hasChromium, openRecipe, openSession, shot, type Session } from './harness.js';

describe.skipIf(!hasChromium)('sampled preview e2e (issue 18)', () => {
  let s: Session;
  const saved = { above: process.env.ASSAY_PREVIEW_SAMPLE_ABOVE, docs: process.env.ASSAY_PREVIEW_SAMPLE_DOCS };
  beforeAll(async () => {
    // The bound is 5,000,000 documents; the 600-document demo crosses a lowered one (the host reads it from its environment).
    process.env.ASSAY_PREVIEW_SAMPLE_ABOVE = '300';
    process.env.ASSAY_PREVIEW_SAMPLE_DOCS = '250';
    s = await openSession({ docs: 600 });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    for (const [k, v] of [['ASSAY_PREVIEW_SAMPLE_ABOVE', saved.above], ['ASSAY_PREVIEW_SAMPLE_DOCS', saved.docs]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('shows estimates with their intervals, then the exact figures `assay preview` prints, counted by a job', async () => {
    const { page } = s;
    await openRecipe(page, s.server, 'recipes/demo.yaml');
    const note = page.getByTestId('sample-note');
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toMatch(/Estimated from a uniform sample of \d+ of 600 documents; 95% intervals on hover/);
    const kept = page.getByTestId('total-kept');
    expect(await kept.getAttribute('data-exact')).toBe('false');
    const ci = (await kept.getAttribute('data-ci'))?.split('-').map(Number) ?? [];
    expect(ci).toHaveLength(2);
    const estimate = await figure(page, 'total-kept');
    expect(ci[0]).toBeLessThanOrEqual(estimate);
    expect(ci[1]).toBeGreaterThanOrEqual(estimate);
    expect(await kept.getAttribute('title')).toMatch(/95% CI [\d,]+–[\d,]+/);
    await shot(page, 'sampled-preview');

    await page.getByTestId('exact-preview').click();
    await note.waitFor({ state: 'detached', timeout: 60_000 });
    expect(await kept.getAttribute('data-exact')).toBe('true');
    // Counted by a `preview` job (a process of its own, listed under Runs), which kept its figures beside the index.
    expect(readdirSync(join(s.ws, '.assay', 'previews')).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    const cli = runCli(['preview', '-c', 'recipes/demo.yaml', '--index', '.', '--json'], { cwd: s.ws });
    expect(cli.code, cli.stderr).toBe(0);
    const want = JSON.parse(cli.stdout) as PreviewResult;
    expect(await figure(page, 'total-kept')).toBe(want.total.kept.docs);
    expect(await figure(page, 'total-dropped')).toBe(want.total.dropped.docs);
    await shot(page, 'sampled-preview-exact');
    expect(s.consoleErrors).toEqual([]);
  });
});
