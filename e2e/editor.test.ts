// Issue 11's editor and runs items in Debian's Chromium against `assay serve`: refusing broken recipes, configs per kind,
// following the disk, undo steps, Monaco's keybindings, starter recipes, the YAML error at the edit, the env allow-list.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../workers/engine/cli/run-cli.js';
import { tempDir } from '../workers/engine/testing.js';
import { dragHandle, editorText, hasChromium, openRecipe, openSession, setEditorText, shot, type Session } from './harness.js';

type Marker = { line: number; column: number; endColumn: number; severity: 'error' | 'warning'; message: string; source: string };
type Hook = { markers?(): Marker[]; position?(): { line: number; column: number } | null };

const markers = (page: Page): Promise<Marker[]> => page.evaluate(() => (window as unknown as { __assayEditor: Hook }).__assayEditor.markers?.() ?? []);
const cursorLine = (page: Page): Promise<number | undefined> => page.evaluate(() => (window as unknown as { __assayEditor: Hook }).__assayEditor.position?.()?.line);
const lineOf = (text: string, needle: string): number => text.slice(0, text.indexOf(needle)).split('\n').length;
const WORD_COUNT = /(@\.gopher_rules__gopher_v1__word_count\[0\]\[2\] < )(\d+(?:\.\d+)?)/;
const threshold = (text: string): number => Number(WORD_COUNT.exec(text)?.[2]);

/** Clicks into the editor's text (placing the cursor, changing nothing) so keys go to Monaco. */
async function focusEditor(page: Page): Promise<void> {
  await page.getByTestId('recipe-editor').click({ position: { x: 300, y: 12 } });
}

/**
 * Ctrl+G to `line`, back in the text: keys pressed while the go-to box is still closing would land in it, so this
 * waits for the box to go and the editor to hold the focus again.
 */
async function goToLine(page: Page, line: number): Promise<void> {
  await focusEditor(page);
  const box = page.locator('.quick-input-widget');
  await page.keyboard.press('Control+g');
  await box.waitFor({ state: 'visible', timeout: 5_000 });
  await page.keyboard.type(String(line));
  await page.keyboard.press('Enter');
  await expect.poll(() => cursorLine(page), { timeout: 5_000 }).toBe(line);
  await box.waitFor({ state: 'hidden', timeout: 5_000 });
  await page.locator('.monaco-editor.focused').waitFor({ timeout: 5_000 });
}

describe.skipIf(!hasChromium)('editor and runs e2e (issue 11: 2, 3, 5, 6, 7, 14; 12.5)', () => {
  let s: Session;
  let page: Page;
  let file = '';
  let original = '';

  beforeAll(async () => {
    s = await openSession({ docs: 300 });
    page = s.page;
    file = join(s.ws, 'recipes/demo.yaml');
    page.on('dialog', (d) => void d.accept());
    await openRecipe(page, s.server, 'recipes/demo.yaml');
    original = await editorText(page);
  }, 180_000);

  afterAll(async () => {
    await s?.close();
  });

  it('7: Ctrl+G goes to a line and F1 opens the command palette; what is typed there stays out of the text', async () => {
    await page.locator('.monaco-editor').waitFor();
    await goToLine(page, 26);
    expect(await editorText(page)).toBe(original);

    const quick = page.locator('.quick-input-widget');
    await page.keyboard.press('F1');
    await quick.waitFor({ state: 'visible', timeout: 5_000 });
    await page.keyboard.type('toggle line comment');
    await expect.poll(() => quick.locator('.monaco-list-row').count(), { timeout: 5_000 }).toBeGreaterThan(0);
    await shot(page, 'e2e1-7-command-palette');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await editorText(page)).split('\n')[25], { timeout: 5_000 }).toMatch(/^\s+# - "\$\.attributes/);
    await page.keyboard.press('Control+z');
    await expect.poll(() => editorText(page), { timeout: 5_000 }).toBe(original);
  });

  it('completes recipe keys by place: the keys of the mapping being typed in, with type and meaning', async () => {
    const widget = page.locator('.suggest-widget');
    /** Opens a new line below `line` (Ctrl+G there, End, Enter), types `typed` and asks for completions. */
    const completeBelow = async (line: number, typed: string): Promise<void> => {
      await goToLine(page, line);
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      await page.keyboard.type(typed);
      // The new line holds what was typed and the cursor is at its end: only then ask, so a miss is the product's.
      await expect.poll(async () => `${(await editorText(page)).split('\n')[line]}|${await cursorLine(page)}`, { timeout: 5_000 }).toMatch(new RegExp(`^\\s*${typed}\\|${line + 1}$`));
      await page.keyboard.press('Control+Space');
      await widget.waitFor({ state: 'visible', timeout: 5_000 });
    };
    /**
     * The list holds `want`. Once, on a loaded CI machine, Monaco answered the ask with "No suggestions." (not reproduced
     * in seven local runs under load; the line and cursor are checked before asking). A user asks again; so does this,
     * once, and a second miss fails.
     */
    const offers = async (want: string): Promise<void> => {
      let asked = 0;
      await expect
        .poll(
          async () => {
            const text = await widget.innerText();
            if (/No suggestions/.test(text) && asked === 0) {
              asked++;
              await page.keyboard.press('Escape');
              await page.keyboard.press('Control+Space');
            }
            return text;
          },
          { timeout: 8_000 },
        )
        .toContain(want);
    };
    const line = lineOf(original, 'path: output/demo');
    await completeBelow(line, 'disc');
    await offers('discard_fields');
    await shot(page, 'e2e1-recipe-key-completion');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await editorText(page)).split('\n')[line], { timeout: 5_000 }).toBe('      discard_fields: ');
    // At the top level, the recipe's own keys (an output's are not offered there).
    await completeBelow(lineOf(await editorText(page), 'processes: 1'), 'd');
    await offers('dryrun');
    expect(await widget.innerText()).not.toContain('discard_fields');
    await page.keyboard.press('Escape');
    await setEditorText(page, original);
    await expect.poll(() => editorText(page), { timeout: 5_000 }).toBe(original);
    // The half-typed keys above were schema errors: the next test starts once they are gone.
    await expect.poll(async () => (await markers(page)).filter((m) => m.severity === 'error'), { timeout: 20_000 }).toEqual([]);
  });

  it('14: a YAML error the parser reports further down also marks the line last edited', async () => {
    const lines = original.split('\n');
    lines[4] = ` ${lines[4]}`; // ` streams:` on line 5
    await setEditorText(page, lines.join('\n'));
    const pointer = async () => (await markers(page)).find((m) => m.source === 'recipe (last edit)');
    await expect.poll(pointer, { timeout: 20_000 }).toMatchObject({ line: 5, severity: 'error' });
    const reported = Number(/reported at line (\d+); you last edited line 5\b/.exec((await pointer())?.message ?? '')?.[1]);
    expect(reported).toBeGreaterThan(5);
    expect((await markers(page)).some((m) => m.line === reported && m.severity === 'error' && m.source !== 'recipe (last edit)')).toBe(true);
    // Show it: go to line 5 (Ctrl+G) and open the problem there (F8).
    await goToLine(page, 5);
    await page.keyboard.press('F8');
    await page.locator('.marker-widget').waitFor({ state: 'visible', timeout: 5_000 });
    expect(await page.locator('.marker-widget').textContent()).toContain('you last edited line 5');
    await shot(page, 'e2e1-14-error-at-edit');
    await page.keyboard.press('Escape');
    await setEditorText(page, original);
    await expect.poll(async () => (await markers(page)).filter((m) => m.severity === 'error'), { timeout: 20_000 }).toEqual([]);
  });

  it('2: Run mix refuses a broken recipe, and an output path outside the workspace, with the marker and nothing written', async () => {
    const disk = readFileSync(file, 'utf8');
    await page.getByTestId('tab-runs').click();
    const jobs = page.locator('[data-testid="job-history"] tbody tr.job-row');
    const jobsBefore = await jobs.count();

    // A deleted closing quote.
    const broken = original.replace('>= 1)]"\n', '>= 1)]\n');
    expect(broken).not.toBe(original);
    await setEditorText(page, broken);
    await page.getByTestId('run-mix').click();
    await expect.poll(() => page.getByTestId('runs-error').textContent(), { timeout: 10_000 }).toMatch(/not started, nothing saved/);
    expect(readFileSync(file, 'utf8')).toBe(disk);
    expect(await page.getByTestId('recipe-dirty').getAttribute('data-dirty')).toBe('true');
    await expect.poll(async () => (await markers(page)).some((m) => m.severity === 'error' && m.source.startsWith('run check')), { timeout: 5_000 }).toBe(true);
    await shot(page, 'e2e1-2-refused-broken');

    // An output path outside the workspace: flagged while typing, before any run, then refused.
    const outside = original.replace('path: output/demo', 'path: ../../e1-outside');
    await setEditorText(page, outside);
    const line = lineOf(outside, 'path: ../../e1-outside');
    const col = outside.split('\n')[line - 1]!.indexOf('../../e1-outside') + 1;
    await expect.poll(async () => (await markers(page)).find((m) => m.source === 'lint: outside-workspace'), { timeout: 20_000 }).toMatchObject({ line, column: col, severity: 'error' });
    await page.getByTestId('run-mix').click();
    await expect.poll(async () => (await markers(page)).find((m) => m.source.startsWith('run check')), { timeout: 10_000 }).toMatchObject({ line, column: col });
    expect(readFileSync(file, 'utf8')).toBe(disk);
    expect(existsSync(join(s.ws, '../../e1-outside'))).toBe(false);
    expect(await jobs.count()).toBe(jobsBefore);
    await shot(page, 'e2e1-2-refused-outside');

    // A recipe that passes is saved, then run.
    const good = original.replace(WORD_COUNT, (_m, a: string) => `${a}55`);
    await setEditorText(page, good);
    await page.getByTestId('run-mix').click();
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
    expect(readFileSync(file, 'utf8')).toBe(good);
    expect(await page.getByTestId('recipe-dirty').getAttribute('data-dirty')).toBe('false');
    original = good;
  });

  it('6: each threshold drag and each threshold-box edit is one undo step', async () => {
    await setEditorText(page, original);
    await page.getByTestId('tab-distributions').click();
    const rule = await page.locator('[data-testid="sweep-rule-select"] option', { hasText: 'word_count' }).first().getAttribute('value');
    await page.getByTestId('sweep-rule-select').selectOption(rule ?? '');
    const handle = page.getByTestId('histogram-threshold-handle');
    await handle.waitFor({ timeout: 20_000 });
    const drag = async (dx: number): Promise<number> => {
      const before = threshold(await editorText(page));
      await dragHandle(page, handle, dx);
      await expect.poll(async () => threshold(await editorText(page)), { timeout: 10_000 }).not.toBe(before);
      return threshold(await editorText(page));
    };
    const t0 = threshold(await editorText(page));
    const t1 = await drag(60);
    const t2 = await drag(60);
    expect(t2).toBeGreaterThan(t1);
    expect(t1).toBeGreaterThan(t0);
    await shot(page, 'e2e1-6-dragged');
    await focusEditor(page);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => threshold(await editorText(page)), { timeout: 5_000 }).toBe(t1);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => threshold(await editorText(page)), { timeout: 5_000 }).toBe(t0);

    for (const v of ['70', '90']) {
      const box = page.getByTestId('threshold-input');
      await box.fill(v);
      await box.press('Enter');
      await expect.poll(async () => threshold(await editorText(page)), { timeout: 5_000 }).toBe(Number(v));
    }
    await focusEditor(page);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => threshold(await editorText(page)), { timeout: 5_000 }).toBe(70);
    await page.keyboard.press('Control+z');
    await expect.poll(async () => threshold(await editorText(page)), { timeout: 5_000 }).toBe(t0);
    expect(await editorText(page)).toBe(original);
  });

  it('5: a clean editor follows the file on disk within a second; a modified one warns at once', async () => {
    await setEditorText(page, original);
    expect(await page.getByTestId('recipe-dirty').getAttribute('data-dirty')).toBe('false');
    const next = original.replace('max_size_in_bytes: 100000000', 'max_size_in_bytes: 100000001');
    let t = Date.now();
    writeFileSync(file, next);
    await expect.poll(() => editorText(page), { timeout: 3_000, interval: 50 }).toBe(next);
    const followMs = Date.now() - t;
    expect(await page.getByTestId('recipe-dirty').getAttribute('data-dirty')).toBe('false');

    const mine = `${next}# mine\n`;
    await setEditorText(page, mine);
    t = Date.now();
    const theirs = next.replace('processes: 1', 'processes: 2');
    writeFileSync(file, theirs);
    await page.getByTestId('recipe-disk-changed').waitFor({ timeout: 3_000 });
    const warnMs = Date.now() - t;
    expect(await editorText(page)).toBe(mine);
    await shot(page, 'e2e1-5-disk-changed');
    console.log(`file on disk → clean editor ${followMs} ms, → "changed on disk" warning ${warnMs} ms`);
    expect(followMs).toBeLessThan(1_500);
    expect(warnMs).toBeLessThan(1_500);
    // Save keeps the other version and says why; Overwrite replaces it with the editor's.
    await page.getByTestId('recipe-save').click();
    await expect.poll(() => page.getByTestId('recipe-error').textContent(), { timeout: 5_000 }).toContain('changed on disk since the editor read it');
    expect(readFileSync(file, 'utf8')).toBe(theirs);
    await page.getByTestId('recipe-overwrite').click();
    await expect.poll(() => page.getByTestId('recipe-dirty').getAttribute('data-dirty'), { timeout: 5_000 }).toBe('false');
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(await page.getByTestId('recipe-disk-changed').count()).toBe(0);
    // The other version again (a clean editor follows it), and Reload, which reads the disk, keeps it.
    writeFileSync(file, theirs);
    await expect.poll(() => editorText(page), { timeout: 3_000, interval: 50 }).toBe(theirs);
    await page.getByTestId('recipe-reload').click();
    await expect.poll(() => page.getByTestId('recipe-dirty').getAttribute('data-dirty'), { timeout: 5_000 }).toBe('false');
    original = await editorText(page);
    expect(original).toBe(theirs);
  });

  it('3: the Runs tab lists every config of the chosen kind, creates one from a template, and refresh finds new ones', async () => {
    await page.getByTestId('tab-runs').click();
    const options = async () => page.locator('[data-testid="run-config"] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    await page.getByTestId('run-kind').selectOption('dedupe');
    await expect.poll(options).toEqual(['configs/dedupe.yaml']);
    await page.getByTestId('run-kind').selectOption('minhash');
    await expect.poll(options).toEqual(['configs/minhash.yaml']);

    // Files that appear on disk: a second dedupe config in another folder, and a JSON file that is no config.
    mkdirSync(join(s.ws, 'cases'), { recursive: true });
    writeFileSync(join(s.ws, 'cases/inline-cases.json'), JSON.stringify([{ input: 'a', expected: 'b' }]));
    mkdirSync(join(s.ws, 'more'), { recursive: true });
    writeFileSync(join(s.ws, 'more/dedupe-2.yaml'), readFileSync(join(s.ws, 'configs/dedupe.yaml')));
    await page.getByTestId('runs-refresh').click();
    await page.getByTestId('run-kind').selectOption('dedupe');
    await expect.poll(options, { timeout: 10_000 }).toEqual(expect.arrayContaining(['configs/dedupe.yaml', 'more/dedupe-2.yaml']));
    for (const kind of ['mix', 'tag', 'dedupe', 'minhash', 'tokens']) {
      await page.getByTestId('run-kind').selectOption(kind);
      expect(await options()).not.toContain('cases/inline-cases.json');
    }

    // No tokens config yet: make one from a template, under a name chosen here; it is then the selected config.
    await page.getByTestId('run-kind').selectOption('tokens');
    expect(await options()).toEqual([]);
    await page.getByTestId('run-new-config').click();
    const picker = page.getByTestId('run-template-template');
    await expect.poll(() => picker.locator('option').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    await picker.selectOption({ index: 1 });
    const name = page.getByTestId('run-template-name');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toMatch(/\.(ya?ml|json)$/);
    await name.fill('configs/e1-tokens.yaml');
    await page.getByTestId('run-template-create').click();
    await expect.poll(() => page.getByTestId('run-config').inputValue(), { timeout: 10_000 }).toBe('configs/e1-tokens.yaml');
    expect(readFileSync(join(s.ws, 'configs/e1-tokens.yaml'), 'utf8')).toMatch(/\S/);
    await shot(page, 'e2e1-3-runs-configs');
    await page.getByTestId('run-start').click();
    await expect.poll(() => page.getByTestId('job-latest-state').textContent(), { timeout: 20_000 }).toMatch(/tokens/);
    await expect.poll(() => page.getByTestId('job-latest-state').getAttribute('data-state'), { timeout: 120_000 }).toBe('done');
  });

  it('Save as onto a name that is taken replaces that file only when the user confirms', async () => {
    const taken = join(s.ws, 'recipes/taken.yaml');
    writeFileSync(taken, 'taken: 1\n');
    const mine = `${original}# saved as\n`;
    await setEditorText(page, mine);
    const answers: string[] = [];
    const answer = (confirm: boolean) => (d: Dialog) => {
      answers.push(d.type());
      void (d.type() === 'prompt' ? d.accept('recipes/taken.yaml') : confirm ? d.accept() : d.dismiss());
    };
    page.removeAllListeners('dialog');
    page.on('dialog', answer(false));
    await page.getByTestId('recipe-save-as').click();
    await expect.poll(() => answers).toEqual(['prompt', 'confirm']);
    await expect.poll(() => page.getByTestId('recipe-error').textContent()).toContain("'recipes/taken.yaml' already exists");
    expect(readFileSync(taken, 'utf8')).toBe('taken: 1\n');
    expect(await page.getByTestId('recipe-select').inputValue()).toBe('recipes/demo.yaml');
    page.removeAllListeners('dialog');
    page.on('dialog', answer(true));
    await page.getByTestId('recipe-save-as').click();
    await expect.poll(() => page.getByTestId('recipe-select').inputValue(), { timeout: 5_000 }).toBe('recipes/taken.yaml');
    expect(readFileSync(taken, 'utf8')).toBe(mine);
    page.removeAllListeners('dialog');
    page.on('dialog', (d) => void d.accept());
    await page.getByTestId('recipe-select').selectOption('recipes/demo.yaml');
    await expect.poll(() => editorText(page), { timeout: 5_000 }).toBe(original);
  });

  it('12.5: the workspace settings dialog edits the env allow-list', async () => {
    await page.getByTestId('settings-open').click();
    const dialog = page.getByTestId('settings-dialog');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toMatch(/oc\.env:NAME/);
    const env = page.getByTestId('settings-env');
    await expect.poll(() => env.isEnabled()).toBe(true);
    await env.fill('1BAD HOME');
    await page.getByTestId('settings-invalid').waitFor();
    expect(await page.getByTestId('settings-save').isDisabled()).toBe(true);
    await env.fill('HOME\nDATA_ROOT');
    await shot(page, 'e2e1-12.5-settings');
    await page.getByTestId('settings-save').click();
    await dialog.waitFor({ state: 'detached' });
    const stored = JSON.parse(readFileSync(join(s.ws, '.assay/settings.json'), 'utf8')) as { envAllowList: string[] };
    expect([...stored.envAllowList].sort()).toEqual(['DATA_ROOT', 'HOME']);
    await page.getByTestId('settings-open').click();
    await expect.poll(async () => (await page.getByTestId('settings-env').inputValue()).split('\n').sort()).toEqual(['DATA_ROOT', 'HOME']);
    await page.getByTestId('settings-cancel').click();
    await dialog.waitFor({ state: 'detached' });
    expect(s.consoleErrors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)('starter recipes e2e (issue 11.11)', () => {
  let s: Session;
  let cleanup = (): void => undefined;

  beforeAll(async () => {
    const tmp = tempDir('assay-e2e1-');
    cleanup = tmp.cleanup;
    const ws = join(tmp.dir, 'fresh');
    const demo = runCli(['demo', '--out', ws, '--docs', '200', '--quiet']);
    expect(demo.code, demo.stderr).toBe(0);
    rmSync(join(ws, 'recipes'), { recursive: true, force: true });
    s = await openSession({ workspace: ws });
  }, 180_000);

  afterAll(async () => {
    await s?.close();
    cleanup();
  });

  it('a workspace with no recipe offers the starters; one is rendered, saved under the chosen name and opened', async () => {
    const { page } = s;
    await page.goto(s.server.url);
    const starter = page.getByTestId('starter');
    await starter.waitFor({ timeout: 60_000 });
    expect(await page.locator('[data-testid="workspace-panel"] summary', { hasText: 'Recipes' }).textContent()).toBe('Recipes (0)');
    const buttons = starter.locator('[data-testid^="starter-new-template-"]');
    await expect.poll(() => buttons.count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    // The presets (FineWeb, Dolma's C4) and the recipe built from the workspace's attribute catalogue.
    const offered = await buttons.evaluateAll((bs) => bs.map((b) => `${b.getAttribute('data-testid')}: ${b.textContent}`));
    expect(offered).toEqual(
      expect.arrayContaining([expect.stringMatching(/-fineweb: .*FineWeb/), expect.stringMatching(/-dolma-c4: .*C4/), expect.stringMatching(/-starter: .*attributes/)]),
    );
    await shot(page, 'e2e1-11-starters');

    await page.getByTestId('starter-new-template-starter').click();
    const name = page.getByTestId('starter-new-name');
    await expect.poll(() => name.inputValue(), { timeout: 10_000 }).toMatch(/\.(ya?ml|json)$/);
    await name.fill('recipes/my-start.yaml');
    await page.getByTestId('starter-new-create').click();
    await expect.poll(() => page.getByTestId('recipe-select').inputValue(), { timeout: 10_000 }).toBe('recipes/my-start.yaml');
    const written = readFileSync(join(s.ws, 'recipes/my-start.yaml'), 'utf8');
    await expect.poll(() => editorText(page), { timeout: 10_000 }).toBe(written);
    await page.getByTestId('total-kept').waitFor({ timeout: 30_000 });
    expect(await page.locator('[data-testid="workspace-panel"] summary', { hasText: 'Recipes' }).textContent()).toBe('Recipes (1)');
    await shot(page, 'e2e1-11-starter-opened');
    expect(s.consoleErrors).toEqual([]);
  });
});
