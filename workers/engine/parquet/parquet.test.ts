// Parquet in and out, checked with DuckDB (an independent reader): FineWeb round trip, any HF dataset, flattening, errors, cancel.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { readJsonlFile, scratchDir, writeJsonl } from '../testing.js';
import type { ProgressReport } from '../jobs/progress.js';
import { documentsIn, runExport, runImport } from './index.js';
import { sha256File } from '../manifest/write.js';
import { outputLockPath } from '../io/output-lock.js';
import { loadManifest } from '../manifest/read.js';
import { chainNodes, loadChain } from '../manifest/chain.js';
import { duckRows, finewebRows, writeFinewebParquet } from './testing.js';

const query = duckRows;

const FINEWEB = 'text, id, dump, url, date, file_path, language, language_score, token_count';

describe('assay import / export (Parquet)', () => {
  it('FineWeb shard → Dolma documents → Parquet: DuckDB reads the same rows and types back', async () => {
    const dir = scratchDir();
    const input = join(dir, 'raw/CC-MAIN-2024-10/000_00000.parquet');
    writeFinewebParquet(input, finewebRows(10), 4);
    const reports: ProgressReport[] = [];
    const s = await runImport({ inputs: [input], dest: join(dir, 'ws'), onProgress: (p) => reports.push(p) });
    expect(s.files).toEqual([expect.objectContaining({ rows: 10, docs: 10, noText: 0, generatedIds: 0 })]);
    expect(reports.at(-1)).toMatchObject({ stage: 'import', filesDone: 1, filesTotal: 1, docs: 10 });

    const docs = readJsonlFile(join(dir, 'ws/documents/000_00000.jsonl.gz'));
    expect(docs[3]).toMatchObject({ id: finewebRows(10)[3]?.id, text: finewebRows(10)[3]?.text, source: 'CC-MAIN-2024-10', created: '2024-02-04T10:11:12Z' });
    expect(docs[3]?.metadata).toEqual({ dump: 'CC-MAIN-2023-50', url: 'https://example.org/bread/3.html', date: '2024-02-04T10:11:12Z', file_path: finewebRows(10)[3]?.file_path, language: 'en', language_score: finewebRows(10)[3]?.language_score, token_count: 29 });

    const e = await runExport({ documents: [join(dir, 'ws/documents/*')], dest: join(dir, 'out'), rowGroupRows: 3 });
    expect(e.files).toEqual([expect.objectContaining({ output: join(dir, 'out/000_00000.parquet'), rows: 10 })]);
    const [a, b] = [await query(`SELECT ${FINEWEB} FROM read_parquet('${input}') ORDER BY id`), await query(`SELECT ${FINEWEB} FROM read_parquet('${join(dir, 'out/000_00000.parquet')}') ORDER BY id`)];
    expect(b).toHaveLength(10);
    expect(b).toEqual(a);
    const types = Object.fromEntries((await query(`DESCRIBE SELECT * FROM read_parquet('${join(dir, 'out/000_00000.parquet')}')`)).map((r) => [r.column_name, r.column_type]));
    expect(types).toMatchObject({ id: 'VARCHAR', text: 'VARCHAR', source: 'VARCHAR', url: 'VARCHAR', language_score: 'DOUBLE', token_count: 'BIGINT' });
  });

  it('any text dataset: --text-field / no id column; other columns (lists too) go to metadata and come back as columns', async () => {
    const dir = scratchDir();
    parquetWriteFile({
      filename: join(dir, 'train-00000.parquet'),
      columnData: [
        { name: 'content', data: ['first text', null, 'third text'], type: 'STRING' },
        { name: 'stars', data: [5, 0, 12], type: 'INT32' },
        { name: 'tags', data: [['a', 'b'], [], ['c']] },
      ],
    });
    const s = await runImport({ inputs: [join(dir, '*.parquet')], dest: join(dir, 'ws'), textField: 'content', source: 'hf', cwd: dir });
    expect(s.files[0]).toMatchObject({ rows: 3, docs: 2, noText: 1, generatedIds: 2 });
    const docs = readJsonlFile(join(dir, 'ws/documents/train-00000.jsonl.gz'));
    expect(docs.map((d) => [d.id, d.text, d.source, d.metadata])).toEqual([
      ['train-00000-0', 'first text', 'hf', { stars: 5, tags: ['a', 'b'] }],
      ['train-00000-2', 'third text', 'hf', { stars: 12, tags: ['c'] }],
    ]);
    await runExport({ documents: [join(dir, 'ws/documents/*.jsonl.gz')], dest: join(dir, 'out') });
    const rows = await query(`SELECT id, text, stars, CAST(tags AS VARCHAR) AS tags FROM read_parquet('${join(dir, 'out/train-00000.parquet')}') ORDER BY id`);
    expect(rows).toEqual([
      { id: 'train-00000-0', text: 'first text', stars: 5n, tags: '["a","b"]' },
      { id: 'train-00000-2', text: 'third text', stars: 12n, tags: '["c"]' },
    ]);
  });

  it('export flattens metadata one level: a key named like a top-level field keeps its prefix; mixed types widen; one schema for all shards', async () => {
    const dir = scratchDir();
    writeJsonl(join(dir, 'mix/web-0000.jsonl.gz'), [{ id: 'a', text: 'A', source: 'web', metadata: { url: 'u1', id: 'orig-a', score: 1, nested: { k: 1 } } }]);
    writeJsonl(join(dir, 'mix/web-0001.json.gz'), [{ id: 'b', text: 'B', source: 'web', metadata: { url: 'u2', score: 0.5, extra: true } }]);
    writeJsonl(join(dir, 'mix/.assay/ignored.jsonl'), [{ id: 'x', text: 'not a document file' }]);
    const e = await runExport({ documents: [join(dir, 'mix/*')], dest: join(dir, 'out') });
    expect(e.columns.map((c) => `${c.name}:${c.kind}`)).toEqual(['id:string', 'text:string', 'source:string', 'url:string', 'metadata.id:string', 'score:float', 'nested:json', 'extra:bool']);
    expect(readdirSync(join(dir, 'out')).sort()).toEqual(['.assay', 'web-0000.parquet', 'web-0001.parquet']);
    // A folder given as '.' (the CLI's OUTPUT_DIR form): its documents files, the hidden .assay/ left out.
    expect((await documentsIn('.', join(dir, 'mix'))).sort()).toEqual(['web-0000.jsonl.gz', 'web-0001.json.gz']);
    expect(await documentsIn(join(dir, 'mix'))).toEqual([join(dir, 'mix/web-0000.jsonl.gz'), join(dir, 'mix/web-0001.json.gz')]);
    const rows = await query(`SELECT id, url, "metadata.id" AS mid, score, CAST(nested AS VARCHAR) AS nested, extra FROM read_parquet('${join(dir, 'out/*.parquet')}') ORDER BY id`);
    expect(rows).toEqual([
      { id: 'a', url: 'u1', mid: 'orig-a', score: 1, nested: '{"k":1}', extra: null },
      { id: 'b', url: 'u2', mid: null, score: 0.5, nested: null, extra: true },
    ]);
  });

  it('import and export write run manifests: export ← import, every file with the hash of its bytes, reruns identical apart from times', async () => {
    const dir = scratchDir();
    const input = join(dir, 'raw/fw/000.parquet');
    writeFinewebParquet(input, finewebRows(6), 2);
    await runImport({ inputs: [input], dest: join(dir, 'ws') });
    const imp = await loadManifest(join(dir, 'ws/documents/.assay/manifest.json'));
    expect(imp.manifest).toMatchObject({ stage: 'import', inputs: [{ path: input, role: 'parquet', sha256: await sha256File(input), parent: null }], totals: { docs: 6, tokens: { kind: 'estimate' }, bySource: { fw: { docs: 6 } } } });
    expect(imp.manifest.outputs).toEqual([expect.objectContaining({ path: '000.jsonl.gz', role: 'documents', docs: 6, sha256: await sha256File(join(dir, 'ws/documents/000.jsonl.gz')) })]);

    await runExport({ documents: [join(dir, 'ws/documents/*')], dest: join(dir, 'out') });
    const exp = await loadManifest(join(dir, 'out/.assay/manifest.json'));
    expect(exp.manifest).toMatchObject({ stage: 'export', inputs: [{ path: join(dir, 'ws/documents/000.jsonl.gz'), sha256: imp.manifest.outputs[0]?.sha256, parent: 0 }], parents: [{ stage: 'import' }] });
    expect(exp.manifest.outputs).toEqual([expect.objectContaining({ path: '000.parquet', role: 'parquet', docs: 6, sha256: await sha256File(join(dir, 'out/000.parquet')) })]);
    expect(chainNodes(await loadChain(exp)).map((n) => n.manifest.stage)).toEqual(['export', 'import']);

    // The same import again: the same inputs, config and counts (the documents differ only by their `added` time);
    // a changed input: a new hash.
    await runImport({ inputs: [input], dest: join(dir, 'ws') });
    const again = (await loadManifest(join(dir, 'ws/documents/.assay/manifest.json'))).manifest;
    expect([again.inputs, again.configSha256, again.totals]).toEqual([imp.manifest.inputs, imp.manifest.configSha256, imp.manifest.totals]);
    writeFinewebParquet(input, finewebRows(7), 2);
    await runImport({ inputs: [input], dest: join(dir, 'ws') });
    expect((await loadManifest(join(dir, 'ws/documents/.assay/manifest.json'))).manifest.inputs[0]?.sha256).toBe(await sha256File(input));
  });

  it('a Parquet file without the text column is refused naming the file and its columns; nothing is written', async () => {
    const dir = scratchDir();
    const bad = join(dir, 'no-text.parquet');
    parquetWriteFile({ filename: bad, columnData: [{ name: 'body', data: ['x'], type: 'STRING' }, { name: 'url', data: ['u'], type: 'STRING' }] });
    await expect(runImport({ inputs: [bad], dest: join(dir, 'ws') })).rejects.toThrow(`${bad}: no text column 'text' (--text-field names another); its columns are: body, url`);
    await expect(runImport({ inputs: [bad], dest: join(dir, 'ws'), textField: 'body', idField: 'uid' })).rejects.toThrow(`${bad}: no id column 'uid'; its columns are: body, url`);
    await expect(runImport({ inputs: [join(dir, 'none-*.parquet')], dest: join(dir, 'ws') })).rejects.toThrow("no Parquet files match");
    expect(existsSync(join(dir, 'ws'))).toBe(false);
  });

  it('a damaged row group or a cut footer fails naming the file (and the rows), leaving no output', async () => {
    const dir = scratchDir();
    const p = join(dir, 'a.parquet');
    writeFinewebParquet(p, finewebRows(40), 10);
    const bytes = readFileSync(p);
    // Scramble the first row group's pages (the header and footer stay intact).
    for (let i = 200; i < 1200; i++) bytes[i] = ((bytes[i] as number) * 7 + 13) & 255;
    writeFileSync(p, bytes);
    await expect(runImport({ inputs: [p], dest: join(dir, 'ws') })).rejects.toThrow(new RegExp(`^${p}: cannot read rows 0–9: `));
    // The folders the run made for its lock and output go again, empty.
    expect(existsSync(join(dir, 'ws'))).toBe(false);
    writeFileSync(p, bytes.subarray(0, bytes.length - 100));
    await expect(runImport({ inputs: [p], dest: join(dir, 'ws') })).rejects.toThrow(`${p}: not a readable Parquet file: `);
  });

  it('a rerun imports only what is not done: files after a bad one are kept; changed inputs or settings, and --ignore-existing, redo', async () => {
    const dir = scratchDir();
    const [a, b, c] = ['a', 'b', 'c'].map((n) => join(dir, `raw/fw/${n}.parquet`)) as [string, string, string];
    writeFinewebParquet(a, finewebRows(6), 2);
    writeFinewebParquet(c, finewebRows(4), 2);
    writeFileSync(b, 'not parquet at all, but named like it');
    const out = (n: string): string => join(dir, `ws/documents/${n}.jsonl.gz`);
    // Planning reads every footer first, so the bad file stops the run before anything is written.
    await expect(runImport({ inputs: [join(dir, 'raw/fw/*.parquet')], dest: join(dir, 'ws') })).rejects.toThrow(`${b}: not a readable Parquet file`);
    expect(existsSync(join(dir, 'ws'))).toBe(false);
    // A failure in the middle of a run (the second file's first row group is damaged): the first file stays done.
    writeFinewebParquet(b, finewebRows(40), 10);
    const good = readFileSync(b);
    const bad = Buffer.from(good);
    for (let i = 200; i < 1200; i++) bad[i] = ((bad[i] as number) * 7 + 13) & 255;
    writeFileSync(b, bad);
    await expect(runImport({ inputs: [join(dir, 'raw/fw/*.parquet')], dest: join(dir, 'ws') })).rejects.toThrow(new RegExp(`^${b}: cannot read rows 0–9`));
    expect([existsSync(out('a')), existsSync(out('b')), existsSync(out('c'))]).toEqual([true, false, false]);
    const firstA = readFileSync(out('a'));

    writeFileSync(b, good);
    const seen: number[] = [];
    const rerun = await runImport({ inputs: [join(dir, 'raw/fw/*.parquet')], dest: join(dir, 'ws'), onProgress: (p) => seen.push(p.filesTotal) });
    expect(rerun.files.map((f) => [f.input, f.skipped ?? false, f.docs])).toEqual([[a, true, 6], [b, false, 40], [c, false, 4]]);
    expect(seen.at(-1)).toBe(2);
    // Not rewritten (its `added` times would differ), and the manifest still lists it with its hash and counts.
    expect(readFileSync(out('a'))).toEqual(firstA);
    const m = (await loadManifest(join(dir, 'ws/documents/.assay/manifest.json'))).manifest;
    expect(m.outputs.map((o) => [o.path, o.docs])).toEqual([['a.jsonl.gz', 6], ['b.jsonl.gz', 40], ['c.jsonl.gz', 4]]);
    expect(m.outputs[0]?.sha256).toBe(await sha256File(out('a')));

    const skipped = async (o: Partial<Parameters<typeof runImport>[0]> = {}): Promise<boolean[]> =>
      (await runImport({ inputs: [join(dir, 'raw/fw/*.parquet')], dest: join(dir, 'ws'), ...o })).files.map((f) => f.skipped ?? false);
    expect(await skipped()).toEqual([true, true, true]);
    writeFinewebParquet(c, finewebRows(5), 2);
    expect(await skipped()).toEqual([true, true, false]);
    expect(await skipped({ source: 'other' })).toEqual([false, false, false]);
    expect(readJsonlFile(out('a'))[0]?.source).toBe('other');
    expect(await skipped({ source: 'other', ignoreExisting: true })).toEqual([false, false, false]);
    // An output changed since its marker was written is not taken for done.
    writeFileSync(out('b'), 'edited');
    expect(await skipped({ source: 'other' })).toEqual([true, false, true]);
  });

  it('a cancelled import stops between row groups and leaves no output, not even the .tmp', async () => {
    const dir = scratchDir();
    writeFinewebParquet(join(dir, 'a.parquet'), finewebRows(12), 2);
    const ac = new AbortController();
    const run = runImport({ inputs: [join(dir, 'a.parquet')], dest: join(dir, 'ws'), signal: ac.signal, onProgress: (p) => p.docs >= 2 && ac.abort() });
    await expect(run).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(existsSync(join(dir, 'ws'))).toBe(false);
  });

  it('one import at a time into a dataset: a live run\'s lock refuses this one, naming it; a dead run\'s lock is taken over', async () => {
    const dir = scratchDir();
    writeFinewebParquet(join(dir, 'a.parquet'), finewebRows(4), 2);
    const lock = outputLockPath(join(dir, 'ws/documents'));
    mkdirSync(dirname(lock), { recursive: true });
    // pid 1 always runs.
    writeFileSync(lock, `${hostname()}\n1\nother\nassay import\n`);
    await expect(runImport({ inputs: [join(dir, 'a.parquet')], dest: join(dir, 'ws') })).rejects.toThrow(
      `${join(dir, 'ws/documents')}: another run is writing here (assay import, process 1 on ${hostname()}); wait for it to finish, or write this run elsewhere`,
    );
    expect(readdirSync(join(dir, 'ws/documents')).sort()).toEqual(['.assay']);
    writeFileSync(lock, `${hostname()}\n${2 ** 22 + 12345}\nother\nassay import\n`);
    const s = await runImport({ inputs: [join(dir, 'a.parquet')], dest: join(dir, 'ws') });
    expect(s.docs).toBe(4);
    expect(existsSync(lock)).toBe(false);
  });
});
