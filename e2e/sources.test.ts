// Sources (issue 16): a workspace holding only a Parquet file is imported from the Sources dialog as a job; the table lists the
// documents and the inspector shows the opened one's URL and dump.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finewebRows, writeFinewebParquet } from '../workers/engine/parquet/testing.js';
import { tempDir } from '../workers/engine/testing.js';
import { httpBlock, perRecordGzip, warcRecord } from '../workers/engine/warc/testing.js';
import { hasChromium, openSession, shot, type Session } from './harness.js';

const ROWS = finewebRows(8);
const WARC_URL = 'https://example.org/harbour.html';
const WARC_ID = '00000000-0000-4000-8000-0000000000ff';
let s: Session;
let cleanup = (): void => undefined;

describe.skipIf(!hasChromium)('Sources dialog', () => {
  beforeAll(async () => {
    const tmp = tempDir('assay-sources-');
    cleanup = tmp.cleanup;
    writeFinewebParquet(join(tmp.dir, 'ws/raw/CC-MAIN-2024-10/000_00000.parquet'), ROWS);
    const html = `<html><body><nav><a href="/">Home</a></nav><main><h1>Harbour notes</h1><p>${'Boats come into the harbour at dawn and leave before the market opens. '.repeat(5)}</p></main></body></html>`;
    writeFileSync(join(tmp.dir, 'ws/raw/crawl.warc.gz'), perRecordGzip([warcRecord('response', WARC_URL, httpBlock(200, { 'Content-Type': 'text/html' }, html), { id: WARC_ID })]));
    s = await openSession({ workspace: join(tmp.dir, 'ws') });
  }, 200_000);

  afterAll(async () => {
    await s?.close();
    cleanup();
  });

  it('imports a Parquet file into a new workspace as a job, lists its documents and shows a document\'s URL', async () => {
    const { page } = s;
    await page.goto(s.server.url);
    await page.getByTestId('sources-open').click();
    expect(await page.getByTestId('sources-executor').textContent()).toBe('runs on this machine');
    const file = page.locator('[data-testid="source-file"][data-path="raw/CC-MAIN-2024-10/000_00000.parquet"]');
    await file.waitFor({ timeout: 20_000 });
    await expect.poll(() => file.textContent()).toContain('8 rows');
    await file.getByTestId('source-choose').check();
    await page.getByTestId('sources-source').fill('fineweb');
    await page.getByTestId('sources-import').click();
    const job = page.getByTestId('sources-job');
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await expect.poll(() => job.textContent()).toContain('imported 8 documents from 1 Parquet file(s)');
    expect(existsSync(join(s.ws, 'documents/000_00000.jsonl.gz'))).toBe(true);
    await shot(page, 'sources-1-imported');
    await page.getByTestId('sources-close').click();

    // The index was rebuilt by the job: every imported row is a document in the table.
    await page.getByTestId('doc-row-7').waitFor({ timeout: 30_000 });
    const ids = await page.locator('[data-testid^="doc-row-"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-doc-id')));
    expect(new Set(ids)).toEqual(new Set(ROWS.map((r) => r.id)));
    const row = page.locator(`[data-doc-id="${ROWS[5]?.id}"]`).first();
    await row.click();
    await expect.poll(() => page.getByTestId('provenance-url').textContent(), { timeout: 20_000 }).toContain(ROWS[5]?.url);
    expect(await page.getByTestId('provenance-dump').textContent()).toBe(ROWS[5]?.dump);
    await shot(page, 'sources-2-inspector');
    expect(s.consoleErrors).toEqual([]);
  });

  it('extracts a WARC file from the same dialog: the page is a document whose inspector shows its URL and WARC record id', async () => {
    const { page } = s;
    await page.getByTestId('sources-open').click();
    const file = page.locator('[data-testid="source-file"][data-path="raw/crawl.warc.gz"]');
    await file.waitFor({ timeout: 20_000 });
    await file.getByTestId('source-choose').check();
    await page.getByTestId('sources-source').fill('crawl');
    await page.getByTestId('sources-warc').click();
    // The dialog showed the import job until this one started: wait for the warc job's own state.
    const job = page.locator('[data-testid="sources-job"][data-kind="warc"]');
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await expect.poll(() => job.textContent()).toContain('extracted 1 documents from 1 WARC records');
    await page.getByTestId('sources-close').click();
    const row = page.locator('[data-testid^="doc-row-"]', { hasText: 'crawl' }).first();
    await row.waitFor({ timeout: 30_000 });
    await row.click();
    await expect.poll(() => page.getByTestId('provenance-url').textContent(), { timeout: 20_000 }).toContain(WARC_URL);
    expect(await page.getByTestId('provenance-warc_record_id').textContent()).toBe(`<urn:uuid:${WARC_ID}>`);
    await shot(page, 'sources-3-warc');
    expect(s.consoleErrors).toEqual([]);
  });
});

describe.skipIf(!hasChromium)('the demo\'s WARC part', () => {
  let demo: Session;
  beforeAll(async () => {
    demo = await openSession({ docs: 200 });
  }, 200_000);
  afterAll(async () => {
    await demo?.close();
  });

  it('offers raw/demo-pages.warc.gz in Sources; extracting it adds its 12 pages as documents of source "warc", to be tagged before the recipe reads them', async () => {
    const { page } = demo;
    await page.goto(demo.server.url);
    await page.getByTestId('sources-open').click();
    const file = page.locator('[data-testid="source-file"][data-path="raw/demo-pages.warc.gz"]');
    await file.waitFor({ timeout: 20_000 });
    await file.getByTestId('source-choose').check();
    await page.getByTestId('sources-warc').click();
    const job = page.locator('[data-testid="sources-job"][data-kind="warc"]');
    await expect.poll(() => job.getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await expect.poll(() => job.textContent()).toMatch(/extracted 12 documents from 15 WARC records .*2 not HTML/);
    await page.getByTestId('sources-close').click();
    // The index was refreshed by the job: the workspace lists the new source with its 12 documents.
    await expect.poll(() => page.getByTestId('workspace-panel').textContent(), { timeout: 30_000 }).toContain('documents/demo-pages.jsonl.gz12 docs');
    // The demo recipe reads attribute sets the new file does not have yet: the preview names the file to tag, as the mixer would refuse it.
    await expect.poll(() => page.getByTestId('preview').textContent(), { timeout: 30_000 }).toContain("documents/demo-pages.jsonl.gz: attribute set 'gopher_rules' has no file");
    await shot(page, 'sources-4-demo-warc');
  });
});
