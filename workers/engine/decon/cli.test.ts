// `assay decon` through the real CLI: flag and config forms on the worker pool, every eval format, and bad inputs refused.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli } from '../cli/run-cli.js';
import { readJsonlFile, scratchDir, writeJsonl } from '../testing.js';

beforeAll(() => ensureBuilt(), 120_000);

const Q = ['which river runs through the old town and past the market where farmers sell bread every morning', 'what colour is the painted bridge over the harbour near the station in the village'];
const CHOICES = [['the long river', 'the short river'], ['red', 'blue']];

/** Documents: d1 quotes item 0 (with its choices), d2 item 1's question only, d3 nothing. */
function dataset(): string {
  const dir = scratchDir();
  writeJsonl(join(dir, 'data/documents/a.jsonl.gz'), [
    { id: 'd1', text: `Intro. ${Q[0]}? ${CHOICES[0]?.join(' ')}. Outro.` },
    { id: 'd2', text: `Quiz: ${Q[1]?.toUpperCase()}!` },
  ]);
  writeJsonl(join(dir, 'data/documents/b.jsonl.gz'), [{ id: 'd3', text: 'nothing to see here at all, just a plain page about cooking rice and beans.' }]);
  writeJsonl(join(dir, 'evals/qa.jsonl'), Q.map((q, k) => ({ id: `x${k}`, question: q, choices: CHOICES[k] })));
  return dir;
}

const hitsOf = (dir: string, name: string): Record<string, unknown> =>
  Object.fromEntries(['a', 'b'].flatMap((f) => readJsonlFile(join(dir, `data/attributes/${name}/${f}.jsonl.gz`)).map((r) => [r.id, (r.attributes as Record<string, unknown>)[`${name}__decon__hits`]])));

describe('assay decon', () => {
  it('flag form on 2 processes: hits per document, an items file for the report, a saved index reused on rerun', () => {
    const dir = dataset();
    const args = ['decon', '--documents', 'data/documents/*', '--eval', 'evals/qa.jsonl', '--eval-fields', 'question,choices', '--eval-id-field', 'id', '--name', 'ctm', '--processes', '2'];
    const r = runCli(args, { cwd: dir });
    expect(r.stderr).not.toContain('error');
    expect(r.code).toBe(0);
    expect(hitsOf(dir, 'ctm')).toEqual({ d1: ['qa:x0'], d2: ['qa:x1'], d3: [] });
    expect(existsSync(join(dir, 'data/attributes/ctm/.assay/decon-items.json'))).toBe(true);
    expect(existsSync(join(dir, 'ctm.decon.idx'))).toBe(true);
    expect(runCli(args, { cwd: dir }).stdout).toContain('reused');
  });

  it('config form with CSV, JSON ({data}) and Parquet sets; the default row-number id', () => {
    const dir = dataset();
    writeFileSync(join(dir, 'evals/a.csv'), `question,answer\n"${Q[0]}",yes\n`);
    writeFileSync(join(dir, 'evals/b.json'), JSON.stringify({ data: [{ q: 'unrelated words only here and nothing else at all in this one question' }, { q: Q[1] }] }));
    const pq = parquetWriteBuffer({ columnData: [{ name: 'question', data: [Q[1] as string], type: 'STRING' }] });
    writeFileSync(join(dir, 'evals/c.parquet'), Buffer.from(pq));
    writeFileSync(
      join(dir, 'decon.yaml'),
      `name: multi\ndocuments: [data/documents/*]\nngram: 8\neval:\n  - {name: csv, path: evals/a.csv, fields: question}\n  - {name: json, path: evals/b.json, fields: [q]}\n  - {name: pq, path: evals/c.parquet, fields: [question]}\n`,
    );
    const r = runCli(['decon', '-c', 'decon.yaml'], { cwd: dir });
    expect(r.stderr).not.toContain('error');
    expect(hitsOf(dir, 'multi')).toEqual({ d1: ['csv:0'], d2: ['json:1', 'pq:0'], d3: [] });
    expect(existsSync(join(dir, 'multi.decon.idx'))).toBe(true);
  });

  it('--documents narrows a config\'s documents (what a cluster task is given); --keep-existing outranks ignore_existing', () => {
    const dir = dataset();
    writeFileSync(join(dir, 'decon.yaml'), 'name: part\ndocuments: [data/documents/*]\nignore_existing: true\neval:\n  - {name: qa, path: evals/qa.jsonl, fields: [question, choices], id_field: id}\n');
    expect(runCli(['decon', '-c', 'decon.yaml', '--documents', 'data/documents/a.jsonl.gz'], { cwd: dir }).stdout).toMatch(/tagged 1 file\(s\), 2 docs/);
    expect(existsSync(join(dir, 'data/attributes/part/b.jsonl.gz'))).toBe(false);
    expect(runCli(['decon', '-c', 'decon.yaml'], { cwd: dir }).stdout).toMatch(/tagged 2 file\(s\)/);
    expect(runCli(['decon', '-c', 'decon.yaml', '--keep-existing'], { cwd: dir }).stdout).toMatch(/tagged 0 file\(s\).*; skipped 2 already tagged/);
  });

  it('an eval item without the named fields: the file, its line and the fields it has', () => {
    const dir = dataset();
    writeJsonl(join(dir, 'evals/bad.jsonl'), [{ question: Q[0], choices: [] }, { prompt: 'x', answer: 'y' }]);
    const r = runCli(['decon', '--documents', 'data/documents/*', '--eval', 'evals/bad.jsonl', '--eval-fields', 'question,choices', '--name', 'b'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/evals\/bad\.jsonl:2: .*lacks 'question', 'choices'.*fields: prompt, answer/);
    writeFileSync(join(dir, 'evals/bad.csv'), 'prompt,answer\nx,y\n');
    const c = runCli(['decon', '--documents', 'data/documents/*', '--eval', 'evals/bad.csv', '--eval-fields', 'question', '--name', 'b'], { cwd: dir });
    expect(c.stderr).toMatch(/evals\/bad\.csv: row 0 \(0-based\): .*lacks 'question'.*fields: prompt, answer/);
  });

  it('an empty eval set, or one with no item of n words, is refused', () => {
    const dir = dataset();
    writeFileSync(join(dir, 'evals/empty.jsonl'), '');
    const e = runCli(['decon', '--documents', 'data/documents/*', '--eval', 'evals/empty.jsonl', '--eval-fields', 'question', '--name', 'e'], { cwd: dir });
    expect(e.code).toBe(2);
    expect(e.stderr).toContain("eval set 'empty' is empty");
    writeJsonl(join(dir, 'evals/tiny.jsonl'), [{ question: 'too short' }]);
    const t = runCli(['decon', '--documents', 'data/documents/*', '--eval', 'evals/tiny.jsonl', '--eval-fields', 'question', '--name', 'e'], { cwd: dir });
    expect(t.stderr).toContain('has no item of 13 or more words');
    expect(existsSync(join(dir, 'data/attributes/e'))).toBe(false);
  });

  it('a saved index that does not match (n, or a changed eval file) is refused; --rebuild rebuilds it', () => {
    const dir = dataset();
    const base = ['decon', '--documents', 'data/documents/*', '--eval', 'evals/qa.jsonl', '--eval-fields', 'question,choices', '--name', 'm'];
    expect(runCli(base, { cwd: dir }).code).toBe(0);
    const before = readFileSync(join(dir, 'm.decon.idx'));
    const n = runCli([...base, '--ngram', '8'], { cwd: dir });
    expect(n.code).toBe(2);
    expect(n.stderr).toMatch(/does not match this config: it holds 13-grams, the config asks for 8.*--rebuild/);
    writeJsonl(join(dir, 'evals/qa.jsonl'), [{ question: Q[1], choices: [] }]);
    expect(runCli(base, { cwd: dir }).stderr).toContain("eval set 'qa' changed since it was built");
    expect(readFileSync(join(dir, 'm.decon.idx')).equals(before)).toBe(true);
    const rb = runCli([...base, '--rebuild'], { cwd: dir });
    expect(rb.code).toBe(0);
    expect(hitsOf(dir, 'm')).toEqual({ d1: [], d2: ['qa:0'], d3: [] });
  });
});
