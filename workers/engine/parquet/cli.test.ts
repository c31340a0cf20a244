// The built `assay import` / `assay export` commands: import → mix → export of the mix output folder, summaries, exit codes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteFile } from 'hyparquet-writer';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../cli/run-cli.js';
import { scratchDir } from '../testing.js';
import { duckRows, finewebRows, writeFinewebParquet } from './testing.js';

beforeAll(() => ensureBuilt(), 120_000);

const rows = duckRows;

describe('assay import / export', () => {
  it('import two shards on a pool of 2, mix them, export the mix output folder: the kept rows with their FineWeb columns', async () => {
    const dir = scratchDir();
    const all = finewebRows(12);
    writeFinewebParquet(join(dir, 'raw/a.parquet'), all.slice(0, 6));
    writeFinewebParquet(join(dir, 'raw/b.parquet'), all.slice(6));
    const imp = runCli(['import', 'raw/*.parquet', '--dest', 'ws', '--source', 'fineweb', '--processes', '2'], { cwd: dir });
    expect(imp.stderr).not.toContain('error');
    expect(imp.code).toBe(0);
    expect(imp.stdout).toMatch(/^imported 2 file\(s\), 12 documents in [\d.]+ s with 2 process\(es\)$/m);
    expect(imp.stdout).toContain('raw/a.parquet → ws/documents/a.jsonl.gz: 6 rows, 6 documents');
    // The pool's workers finished both files: a rerun reads neither; --ignore-existing reads both again.
    const again = runCli(['import', 'raw/*.parquet', '--dest', 'ws', '--source', 'fineweb', '--processes', '2'], { cwd: dir });
    expect(again.stdout).toContain('raw/b.parquet → ws/documents/b.jsonl.gz: 6 rows, 6 documents; already done (marker; --ignore-existing redoes it)');
    const redo = runCli(['import', 'raw/*.parquet', '--dest', 'ws', '--source', 'fineweb', '--ignore-existing'], { cwd: dir });
    expect(redo.stdout).not.toContain('already done');
    expect(redo.stdout).toContain('raw/a.parquet → ws/documents/a.jsonl.gz: 6 rows, 6 documents');
    // Only the 2024-10 dump is kept: the export must hold exactly those rows.
    writeFileSync(join(dir, 'ws/mix.yaml'), `streams:\n  - name: web\n    documents: [documents/*.jsonl.gz]\n    output: {path: out/web, max_size_in_bytes: 100000000}\n    filter:\n      include: ['$@.metadata[?(@.dump == "CC-MAIN-2024-10")]']\n`);
    const mix = runCli(['mix', '-c', 'mix.yaml', '--quiet'], { cwd: join(dir, 'ws') });
    expect(mix.stderr).toBe('');
    const exp = runCli(['export', 'ws/out/web', '--format', 'parquet', '--dest', 'pq'], { cwd: dir });
    expect(exp.stderr).not.toContain('error');
    expect(exp.stdout).toMatch(/^exported 6 rows to \d Parquet file\(s\)/);
    expect(exp.stdout).toContain('url (string)');
    const got = await rows(`SELECT id, text, url, dump, token_count, source FROM read_parquet('${join(dir, 'pq/*.parquet')}') ORDER BY id`);
    const want = all.filter((r) => r.dump === 'CC-MAIN-2024-10').map((r) => ({ id: r.id, text: r.text, url: r.url, dump: r.dump, token_count: BigInt(r.token_count), source: 'fineweb' }));
    expect(got).toEqual(want);
  });

  it('errors: no text column (exit 2, file and columns named), bad --format, missing --dest, a folder without documents', () => {
    const dir = scratchDir();
    parquetWriteFile({ filename: join(dir, 'q.parquet'), columnData: [{ name: 'question', data: ['why?'], type: 'STRING' }] });
    const r = runCli(['import', 'q.parquet', '--dest', 'ws'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${join(dir, 'q.parquet')}: no text column 'text' (--text-field names another); its columns are: question`);
    expect(runCli(['export', '--format', 'csv', '--documents', 'x', '--dest', 'o'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining("only 'parquet'") });
    expect(runCli(['import', 'q.parquet'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining('--dest DIR') });
    expect(runCli(['export', '.', '--format', 'parquet', '--dest', 'o'], { cwd: dir })).toMatchObject({ code: 2, stderr: expect.stringContaining("no documents files (.jsonl, .json, with .gz or .zst) under '.'") });
  });
});
