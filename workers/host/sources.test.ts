// The Sources dialog's host side: sources.list finds Parquet/WARC files (not in data folders, not through outside links); an import job indexes them.
import { existsSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../engine/testing.js';
import { finewebRows, writeFinewebParquet } from '../engine/parquet/testing.js';
import { httpBlock, perRecordGzip, warcRecord } from '../engine/warc/testing.js';
import { openPreviewEngine } from './engine-adapter.js';
import { failure, memoryHost, type MemoryHost } from './testing.js';

let open: MemoryHost | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('Sources: sources.list and the import job', () => {
  it('lists Parquet (with columns and rows) and WARC files, skipping hidden and data folders and links that leave the workspace', async () => {
    const dir = scratchDir();
    const outside = scratchDir();
    writeFinewebParquet(join(dir, 'raw/CC-MAIN-2024-10/a.parquet'), finewebRows(5));
    writeFinewebParquet(join(dir, 'documents/not-a-source.parquet'), finewebRows(1));
    writeFinewebParquet(join(dir, '.cache/hidden.parquet'), finewebRows(1));
    writeFinewebParquet(join(outside, 'far.parquet'), finewebRows(1));
    symlinkSync(join(outside, 'far.parquet'), join(dir, 'raw/link.parquet'));
    writeFileSync(join(dir, 'raw/crawl.warc.gz'), Buffer.alloc(10));
    writeFileSync(join(dir, 'raw/broken.parquet'), 'not parquet');
    open = memoryHost(dir, openPreviewEngine);
    const files = await open.client.invoke('sources.list', {});
    expect(files.map((f) => [f.path, f.kind])).toEqual([
      ['raw/CC-MAIN-2024-10/a.parquet', 'parquet'],
      ['raw/broken.parquet', 'parquet'],
      ['raw/crawl.warc.gz', 'warc'],
    ]);
    expect(files[0]).toMatchObject({ rows: 5, columns: ['text', 'id', 'dump', 'url', 'date', 'file_path', 'language', 'language_score', 'token_count'] });
    expect(files[1]?.problem).toMatch(/^not a readable Parquet file/);
  });

  it('an import job writes documents/, indexes them (the table lists them, a document carries its URL) and refuses paths outside', { timeout: 120_000 }, async () => {
    const dir = scratchDir();
    writeFinewebParquet(join(dir, 'raw/CC-MAIN-2024-10/a.parquet'), finewebRows(6));
    const h = (open = memoryHost(dir, openPreviewEngine));
    const job = await h.client.invoke('jobs.start', { kind: 'import', configText: JSON.stringify({ documents: ['raw/**/*.parquet'], destination: '.', source: 'fineweb' }) });
    const done = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(done.error).toBeUndefined();
    expect(done).toMatchObject({ state: 'done', summary: expect.stringMatching(/^imported 6 documents from 1 Parquet file\(s\)/), outputs: ['documents'] });
    const page = await h.client.invoke('documents.page', { offset: 0, limit: 100 });
    expect(page.total).toBe(6);
    expect(new Set(page.rows.map((r) => r.source))).toEqual(new Set(['fineweb']));
    const first = finewebRows(6)[2];
    const doc = await h.client.invoke('documents.get', { id: first?.id as string });
    expect(doc.metadata).toMatchObject({ url: first?.url, dump: first?.dump });

    const outside = await failure(h.client.invoke('jobs.start', { kind: 'import', configText: 'documents: [../elsewhere/*.parquet]\n' }));
    expect(outside).toMatchObject({ code: 'FORBIDDEN', field: 'documents' });
    const dest = await failure(h.client.invoke('jobs.start', { kind: 'import', configText: 'documents: [raw/**/*.parquet]\ndestination: /tmp/stolen\n' }));
    expect(dest).toMatchObject({ code: 'FORBIDDEN', field: 'destination' });
  });

  it('a warc job extracts the HTML pages of a WARC in the workspace into documents/, indexed with URL and record id', { timeout: 120_000 }, async () => {
    const dir = scratchDir();
    const page = (title: string): string => `<html><head><title>${title}</title></head><body><nav><a href="/">Home</a> <a href="/x">Menu</a></nav><main><h1>${title}</h1><p>${'The river runs past the old market where farmers sell bread every morning. '.repeat(4)}</p><p>${title} has a second paragraph about the harbour and the station.</p></main><footer>© footer text</footer></body></html>`;
    writeFileSync(join(dir, 'crawl.warc.gz'), perRecordGzip([
      warcRecord('response', 'https://example.org/a.html', httpBlock(200, { 'Content-Type': 'text/html; charset=utf-8' }, page('Alpha')), { id: '00000000-0000-4000-8000-00000000000a' }),
      warcRecord('response', 'https://example.org/logo.png', httpBlock(200, { 'Content-Type': 'image/png' }, Buffer.alloc(64, 1))),
      warcRecord('response', 'https://example.org/b.html', httpBlock(200, { 'Content-Type': 'text/html' }, page('Beta')), { id: '00000000-0000-4000-8000-00000000000b' }),
    ]));
    const h = (open = memoryHost(dir, openPreviewEngine));
    expect((await h.client.invoke('sources.list', {})).map((f) => [f.path, f.kind])).toEqual([['crawl.warc.gz', 'warc']]);
    const job = await h.client.invoke('jobs.start', { kind: 'warc', configText: JSON.stringify({ documents: ['crawl.warc.gz'], destination: '.', source_name: 'crawl' }) });
    const done = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(done.error).toBeUndefined();
    expect(done).toMatchObject({ state: 'done', summary: expect.stringMatching(/^extracted 2 documents from 3 WARC records in 1 file\(s\).*1 not HTML/), outputs: ['documents'] });
    const rows = (await h.client.invoke('documents.page', { offset: 0, limit: 10 })).rows;
    expect(rows.map((r) => r.source)).toEqual(['crawl', 'crawl']);
    const details = await Promise.all(rows.map((r) => h.client.invoke('documents.get', { id: r.id })));
    const alpha = details.find((d) => d.metadata.url === 'https://example.org/a.html');
    expect(alpha?.metadata.warc_record_id).toBe('<urn:uuid:00000000-0000-4000-8000-00000000000a>');
    expect(alpha?.text).toContain('Alpha has a second paragraph');
    expect(alpha?.text).not.toContain('footer text');
    const outside = await failure(h.client.invoke('jobs.start', { kind: 'warc', configText: 'documents: [crawl.warc.gz]\nlid_model: /etc/passwd\n' }));
    expect(outside).toMatchObject({ code: 'FORBIDDEN', field: 'lid_model' });
  });

  it("cancelling an import job (the dialog's Cancel) stops it between row groups and leaves no documents file, not even a .tmp", { timeout: 120_000 }, async () => {
    const dir = scratchDir();
    // Many small row groups: long enough to cancel after the first progress report, however fast the machine.
    writeFinewebParquet(join(dir, 'raw/big.parquet'), finewebRows(80_000), 40);
    const h = (open = memoryHost(dir, openPreviewEngine));
    const job = await h.client.invoke('jobs.start', { kind: 'import', configText: 'documents: [raw/big.parquet]\n' });
    await h.next('job.progress', (p) => p.jobId === job.jobId && p.done > 0, 60_000);
    await h.client.invoke('jobs.cancel', { jobId: job.jobId });
    const end = await h.next('job.state', (j) => j.jobId === job.jobId && j.state !== 'running', 60_000);
    expect(end.state).toBe('cancelled');
    // Not even the folder: the run made it (for its lock), and it is empty again.
    expect(existsSync(join(dir, 'documents'))).toBe(false);
  });
});
