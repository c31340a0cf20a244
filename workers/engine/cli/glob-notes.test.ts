// Every verb that expands documents globs names, on stderr, a folder link `**` does not follow (each file is read once).
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resolvedInputs } from '../executor/adapters.js';
import { writeFinewebParquet, finewebRows } from '../parquet/testing.js';
import { scratchDir, writeJsonl } from '../testing.js';
import { ensureBuilt, runCli, withoutProgress } from './run-cli.js';

beforeAll(() => ensureBuilt(), 120_000);
afterEach(() => vi.restoreAllMocks());

const note = (link: string, pattern: string, target: string): string =>
  `${link}: not followed by '${pattern}': a symbolic link to ${target}, whose files the pattern already lists (once each)`;

const Q = 'which river runs through the old town and past the market where farmers sell bread every morning';

/** `ds/documents/a.jsonl` and `ds/documents/sub/loop -> ..` (a loop back to documents/). */
function loopDataset(): string {
  const dir = scratchDir();
  writeJsonl(join(dir, 'ds/documents/a.jsonl'), [
    { id: 'd1', source: 'web', text: `Intro. ${Q}? Outro.` },
    { id: 'd2', source: 'web', text: 'A plain page about cooking rice and beans.\n\nA plain page about cooking rice and beans.' },
  ]);
  mkdirSync(join(dir, 'ds/documents/sub'));
  symlinkSync('..', join(dir, 'ds/documents/sub/loop'));
  return dir;
}

const GLOB = 'ds/documents/**/*.jsonl';
const LOOP = note('ds/documents/sub/loop', GLOB, 'ds/documents');

describe('folder links `**` does not follow are named by every verb', () => {
  it('dedupe, minhash, decon and decon report: the note once each, every file read once', () => {
    const dir = loopDataset();
    writeFileSync(
      join(dir, 'dedupe.yaml'),
      `documents: ['${GLOB}']\ndedupe:\n  name: dd\n  paragraphs:\n    attribute_name: dup_paragraphs\nbloom_filter:\n  file: bloom.bin\n  read_only: false\n  estimated_doc_count: 1000\n  desired_false_positive_rate: 0.001\n`,
    );
    const dd = runCli(['dedupe', '-c', 'dedupe.yaml'], { cwd: dir });
    expect(dd.code, dd.stderr).toBe(0);
    expect(withoutProgress(dd.stderr)).toBe(`${LOOP}\n`);
    expect(readdirSync(join(dir, 'ds/attributes/dd')).filter((n) => !n.startsWith('.'))).toEqual(['a.jsonl']);

    writeFileSync(join(dir, 'minhash.yaml'), `documents: ['${GLOB}']\nname: mh\n`);
    const mh = runCli(['minhash', '-c', 'minhash.yaml'], { cwd: dir });
    expect(mh.code, mh.stderr).toBe(0);
    expect(withoutProgress(mh.stderr)).toBe(`${LOOP}\n`);
    expect(mh.stdout).toMatch(/\b2 doc/);

    writeJsonl(join(dir, 'evals/qa.jsonl'), [{ id: 'x0', question: Q }]);
    const decon = runCli(['decon', '--documents', GLOB, '--eval', 'evals/qa.jsonl', '--eval-fields', 'question', '--eval-id-field', 'id', '--name', 'ctm', '--quiet'], { cwd: dir });
    expect(decon.code, decon.stderr).toBe(0);
    expect(withoutProgress(decon.stderr)).toBe(`${LOOP}\n`);
    const report = runCli(['decon', 'report', '--documents', GLOB, '--name', 'ctm', '--json'], { cwd: dir });
    expect(report.code, report.stderr).toBe(0);
    expect(report.stderr).toBe(`${LOOP}\n`);
    expect(JSON.parse(report.stdout)).toMatchObject({ sets: [{ set: 'qa', items: 1, hitItems: 1, docs: 1 }] });
  });

  it('import and export (a globbed folder and an output folder): the note, each file once', () => {
    const dir = loopDataset();
    writeFinewebParquet(join(dir, 'raw/a.parquet'), finewebRows(3));
    mkdirSync(join(dir, 'raw/sub'));
    symlinkSync('..', join(dir, 'raw/sub/loop'));
    const imp = runCli(['import', 'raw/**/*.parquet', '--dest', 'ws'], { cwd: dir });
    expect(imp.code, imp.stderr).toBe(0);
    expect(withoutProgress(imp.stderr)).toBe(`${note('raw/sub/loop', 'raw/**/*.parquet', 'raw')}\n`);
    expect(imp.stdout).toMatch(/^imported 1 file\(s\), 3 documents/m);

    const byGlob = runCli(['export', '--documents', GLOB, '--format', 'parquet', '--dest', 'pq'], { cwd: dir });
    expect(byGlob.code, byGlob.stderr).toBe(0);
    expect(withoutProgress(byGlob.stderr)).toBe(`${LOOP}\n`);
    expect(byGlob.stdout).toMatch(/^exported 2 rows to 1 Parquet file/m);
    const byFolder = runCli(['export', 'ds/documents', '--format', 'parquet', '--dest', 'pq2'], { cwd: dir });
    expect(byFolder.code, byFolder.stderr).toBe(0);
    expect(withoutProgress(byFolder.stderr)).toBe(`${note('ds/documents/sub/loop', 'ds/documents/**/*', 'ds/documents')}\n`);
    expect(byFolder.stdout).toMatch(/^exported 2 rows to 1 Parquet file/m);
  });

  it('assay index (its own walk of documents/) names it too, and indexes the file once', () => {
    const dir = loopDataset();
    const r = runCli(['index', 'ds', '--no-search'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(withoutProgress(r.stderr)).toBe('documents/sub/loop: not followed: a symbolic link to documents, whose files the index already lists (once each)\n');
    expect(r.stdout).toMatch(/^indexed 2 documents in 1 file\(s\)/m);
  });

  it("a cluster run's planning (resolvedInputs) names it on stderr too", async () => {
    const dir = loopDataset();
    let err = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      err += String(chunk);
      return true;
    });
    const found = await resolvedInputs([GLOB], dir, 'documents');
    expect(found).toEqual([join(dir, 'ds/documents/a.jsonl')]);
    expect(err).toBe(`${LOOP}\n`);
  });
});
