// Sources slice: the files listed, the choice kept across reloads, the import job's config text, and refusals shown in the dialog.
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { JobInfo, SourceFile } from '../../../shared/contract/index.js';
import { ApiError } from '../api/errors.js';
import { harness } from '../testing/harness.js';
import { missingTextColumn } from './sources.js';

const FILES: SourceFile[] = [
  { path: 'raw/a.parquet', kind: 'parquet', bytes: 10, columns: ['text', 'id', 'url'], rows: 3 },
  { path: 'raw/b.parquet', kind: 'parquet', bytes: 10, columns: ['content', 'url'], rows: 2 },
  { path: 'raw/c.warc.gz', kind: 'warc', bytes: 10 },
];
const job = (jobId: string): JobInfo => ({ jobId, kind: 'import', state: 'running', startedAt: '2026-01-01T00:00:00Z', outputs: [] });

describe('sources slice', () => {
  it('starts an import job whose config names the chosen files and options, and remembers the job', async () => {
    const h = harness({ handlers: { 'sources.list': () => FILES, 'jobs.start': () => job('import-1') } });
    const s = h.store.getState;
    await s().loadSources();
    expect(s().sources.files).toHaveLength(3);
    s().toggleSource('raw/b.parquet');
    s().setSourceOptions({ textField: 'content', source: ' hf ' });
    expect(missingTextColumn(s().sources)).toEqual([]);
    expect(await s().startImport()).toMatchObject({ jobId: 'import-1' });
    const [start] = h.fake.callsOf('jobs.start');
    expect(start?.kind).toBe('import');
    expect(parse(start?.configText ?? '')).toEqual({ documents: ['raw/b.parquet'], destination: '.', text_field: 'content', source: 'hf' });
    expect(s().sources.jobId).toBe('import-1');
    expect(s().runs.latest).toBe('import-1');
  });

  it('WARC files chosen beside Parquet ones go to a warc job of their own, with the source as source_name', async () => {
    const h = harness({ handlers: { 'sources.list': () => FILES, 'jobs.start': (p) => job(`${p.kind}-1`) } });
    const s = h.store.getState;
    await s().loadSources();
    expect(await s().startWarc()).toBeNull();
    expect(s().sources.error).toBe('choose at least one WARC file');
    s().toggleSource('raw/c.warc.gz');
    s().toggleSource('raw/a.parquet');
    s().setSourceOptions({ source: 'crawl' });
    expect(await s().startWarc()).toMatchObject({ jobId: 'warc-1' });
    expect(await s().startImport()).toMatchObject({ jobId: 'import-1' });
    const [warc, imp] = h.fake.callsOf('jobs.start');
    expect([warc?.kind, parse(warc?.configText ?? '')]).toEqual(['warc', { documents: ['raw/c.warc.gz'], destination: '.', source_name: 'crawl' }]);
    expect([imp?.kind, parse(imp?.configText ?? '')]).toEqual(['import', { documents: ['raw/a.parquet'], destination: '.', source: 'crawl' }]);
  });

  it('names chosen files without the text column; a reload drops choices of files gone; a refused start shows the reason', async () => {
    let files = FILES;
    const h = harness({ handlers: { 'sources.list': () => files, 'jobs.start': () => { throw new ApiError({ code: 'FORBIDDEN', message: 'documents: outside the workspace', field: 'documents' }); } } });
    const s = h.store.getState;
    await s().loadSources();
    s().toggleSource('raw/a.parquet');
    s().toggleSource('raw/b.parquet');
    expect(missingTextColumn(s().sources)).toEqual(['raw/b.parquet']);
    files = FILES.slice(0, 1);
    await s().loadSources();
    expect(s().sources.chosen).toEqual(['raw/a.parquet']);
    expect(await s().startImport()).toBeNull();
    expect(s().sources.error).toContain('outside the workspace');
    s().toggleSource('raw/a.parquet');
    expect(await s().startImport()).toBeNull();
    expect(s().sources.error).toBe('choose at least one Parquet file');
  });
});
