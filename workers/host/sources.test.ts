// The Sources dialog's host side: sources.list finds Parquet/WARC files (not in data folders, not through outside links); an import job indexes them.
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../engine/testing.js';
import { finewebRows, writeFinewebParquet } from '../engine/parquet/testing.js';
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
});
