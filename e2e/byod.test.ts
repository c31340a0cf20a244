// "Bring your own data" (issue 11 acceptance): plain-text files outside the repo, the README's FineWeb chain run verbatim
// from their parent folder, then the workbench on them: a starter recipe, a threshold dragged, a search, an export.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandBlocks } from '../scripts/readme-commands.js';
import { ensureBuilt, runCli } from '../workers/engine/cli/run-cli.js';
import { readJsonlFile, REPO_ROOT, tempDir } from '../workers/engine/testing.js';
import { dragHandle, editorText, figure, hasChromium, openSession, shot, type Session } from './harness.js';
import { linkedEnv, userDataset } from './user-data.js';

let s: Session;
let dir = '';
let docs: { id: string; text: string }[] = [];
let cleanup = (): void => undefined;

/** What `assay preview --json` says about a recipe text, run from the workspace as the app's jobs are. */
function cliKept(text: string): number {
  const file = join(s.ws, '.byod-check.yaml');
  writeFileSync(file, text);
  const r = runCli(['preview', '-c', file, '--index', '.', '--json'], { cwd: s.ws });
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { total: { kept: { docs: number } } }).total.kept.docs;
}

describe.skipIf(!hasChromium)('bring your own data', () => {
  beforeAll(async () => {
    ensureBuilt();
    const tmp = tempDir('assay-byod-');
    cleanup = tmp.cleanup;
    dir = tmp.dir;
    docs = userDataset(dir);
    // The README, verbatim: `npm link` from the repository, then the FineWeb chain from the folder holding dataset/.
    const env = linkedEnv(dir);
    const readme = commandBlocks(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8'));
    const link = spawnSync('bash', ['-c', 'npm link'], { cwd: REPO_ROOT, env, encoding: 'utf8' });
    expect(link.status, link.stderr).toBe(0);
    for (const block of readme.filter((b) => b.from === 'data')) {
      for (const command of block.commands) {
        const r = spawnSync('bash', ['-euo', 'pipefail', '-c', command], { cwd: dir, env, encoding: 'utf8', timeout: 180_000 });
        expect(r.status, `README.md:${block.line}: ${command}\n${r.stdout}${r.stderr}`).toBe(0);
      }
    }
    s = await openSession({ workspace: join(dir, 'dataset') });
  }, 400_000);

  afterAll(async () => {
    await s?.close();
    cleanup();
  });

  it('offers a starter recipe on the tagged data and previews exactly what the CLI does', async () => {
    const { page } = s;
    await page.goto(s.server.url);
    const starter = page.getByTestId('starter');
    await starter.waitFor({ timeout: 60_000 });
    await page.getByTestId('starter-new-template-fineweb-tunable').click();
    const name = page.getByTestId('starter-new-name');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toMatch(/\.ya?ml$/);
    await name.fill('recipes/mine.yaml');
    await page.getByTestId('starter-new-create').click();
    await expect.poll(() => page.getByTestId('recipe-select').inputValue(), { timeout: 10_000 }).toBe('recipes/mine.yaml');
    await page.getByTestId('total-kept').waitFor({ timeout: 60_000 });
    const text = readFileSync(join(s.ws, 'recipes/mine.yaml'), 'utf8');
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe(text);
    // The starter's globs are right for this workspace: every document is in its stream, and the preview is the CLI's.
    await expect.poll(() => figure(page, 'total-docs'), { timeout: 20_000 }).toBe(docs.length);
    await expect.poll(() => figure(page, 'total-kept'), { timeout: 20_000 }).toBe(cliKept(text));
    await shot(page, 'byod-1-starter');
  });

  it('drags a threshold: the YAML changes and the preview follows it', async () => {
    const { page } = s;
    await page.getByTestId('tab-distributions').click();
    // The first rule with a threshold in the recipe (the tab may open on a tagger's fixed sub-rule line instead).
    const select = page.getByTestId('sweep-rule-select');
    const rule = await select.locator('option').evaluateAll((os) => os.map((o) => o.getAttribute('value') ?? '').find((v) => /^\d+$/.test(v)));
    expect(rule).toBeDefined();
    await select.selectOption(rule as string);
    const handle = page.getByTestId('histogram-threshold-handle');
    await handle.waitFor({ timeout: 20_000 });
    const before = await editorText(page);
    await dragHandle(page, handle, 'inward');
    await expect.poll(() => editorText(page), { timeout: 10_000 }).not.toBe(before);
    const after = await editorText(page);
    expect(after).toContain(String(await handle.getAttribute('data-value')));
    await expect.poll(() => figure(page, 'total-kept'), { timeout: 20_000 }).toBe(cliKept(after));
    await shot(page, 'byod-2-dragged');
  });

  it('searches the texts and exports what it found', async () => {
    const { page } = s;
    const word = 'warranty';
    // What FTS5's unicode61 tokenizer finds: the word between non-alphanumerics, any case.
    const hits = docs.filter((d) => new RegExp(`(^|[^\\p{L}\\p{N}])${word}($|[^\\p{L}\\p{N}])`, 'iu').test(d.text));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.length).toBeLessThan(docs.length);
    await page.getByTestId('filter-fate').selectOption('');
    await page.getByTestId('doc-search').fill(word);
    await page.getByTestId('doc-search').press('Enter');
    await expect.poll(() => figure(page, 'documents-total'), { timeout: 20_000 }).toBe(hits.length);
    await page.getByTestId('doc-row-0').click();
    await expect.poll(() => page.getByTestId('search-match').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await shot(page, 'byod-3-search');

    await page.getByTestId('export-control').locator('summary').click();
    await page.getByTestId('export-format').selectOption('jsonl');
    await page.getByTestId('export-path').fill('exports/warranty.jsonl');
    await page.getByTestId('export-run').click();
    await expect.poll(() => page.getByTestId('export-result').getAttribute('data-path'), { timeout: 20_000 }).toBe('exports/warranty.jsonl');
    const exported = readJsonlFile(join(s.ws, 'exports/warranty.jsonl')).map((r) => String(r.id));
    expect(new Set(exported)).toEqual(new Set(hits.map((d) => d.id)));
    await shot(page, 'byod-4-export');
    expect(readdirSync(join(dir, 'output/fineweb')).length).toBeGreaterThan(0);
    expect(s.consoleErrors).toEqual([]);
  });
});
