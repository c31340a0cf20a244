// Bad input through the real CLI: non-zero exit, a message naming file and line (or field), no final output.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { readJsonlFile,  writeJsonl, scratchDir } from '../testing.js';
import { ensureBuilt, runCli } from './run-cli.js';

beforeAll(() => ensureBuilt());

const docs = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => ({ id: `d${i}`, text: `document number ${i} has some text`, source: 'test' }));

/** A dataset with documents + one attribute set and a recipe over it; `mutate` breaks something. */
function setup(opts: { docsFile?: string; recipe?: string } = {}): { dir: string; recipe: string; docsPath: string; attrPath: string } {
  const dir = scratchDir();
  const docsFile = opts.docsFile ?? '000.jsonl.gz';
  const docsPath = join(dir, 'data/documents', docsFile);
  const attrPath = join(dir, 'data/attributes/score', docsFile);
  const rows = docs(5);
  writeJsonl(docsPath, rows);
  writeJsonl(attrPath, rows.map((d, i) => ({ id: d.id, attributes: { score: [[0, 5, i / 10]] } })));
  const recipe = join(dir, 'recipe.yaml');
  writeFileSync(
    recipe,
    opts.recipe ??
      `streams:
  - name: out
    documents: [data/documents/*]
    attributes: [score]
    output:
      path: out
      max_size_in_bytes: 1000000
    filter:
      exclude:
        - "$.attributes[?(@.score && @.score[0] && @.score[0][2] > 0.25)]"
`,
  );
  return { dir, recipe, docsPath, attrPath };
}

/** No file with a final name (and no .tmp) is left in the output directory. */
function expectNoOutput(dir: string): void {
  const out = join(dir, 'out');
  const files = existsSync(out) ? readdirSync(out).filter((f) => !f.startsWith('.')) : [];
  expect(files).toEqual([]);
}

function gzLines(lines: string[]): Buffer {
  return gzipSync(Buffer.from(lines.join('\n') + '\n'));
}

describe('assay mix on bad input', () => {
  it('works on good input (control)', () => {
    const s = setup();
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readJsonlFile(join(s.dir, 'out/out-0000.json.gz')).map((d) => d.id)).toEqual(['d0', 'd1', 'd2']);
  });

  it('also accepts Dolma argument order `assay -c recipe mix`', () => {
    const s = setup();
    const r = runCli(['-c', s.recipe, 'mix', '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(0);
  });

  it('truncated gzip', () => {
    const s = setup();
    const big = gzLines(docs(2000).map((d) => JSON.stringify(d)));
    writeFileSync(s.docsPath, big.subarray(0, Math.floor(big.length / 2)));
    writeJsonl(s.attrPath, docs(2000).map((d) => ({ id: d.id, attributes: {} })));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/000\.jsonl\.gz(:\d+)?: .*(unexpected end|truncated)/i);
    expectNoOutput(s.dir);
  });

  it('corrupt zstd', () => {
    const s = setup({ docsFile: '000.jsonl.zst' });
    writeFileSync(s.docsPath, Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.from('this is not a zstd frame at all, just garbage bytes')]));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/000\.jsonl\.zst(:\d+)?: /);
    expectNoOutput(s.dir);
  });

  it('malformed JSON line names file:line; --skip-bad-lines skips and counts it', () => {
    const s = setup();
    const rows = docs(5).map((d) => JSON.stringify(d));
    rows[2] = '{"id": "d2", "text": "broken';
    writeFileSync(s.docsPath, gzLines(rows));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/documents\/000\.jsonl\.gz:3: malformed JSON/);
    expectNoOutput(s.dir);
    const skip = runCli(['mix', '-c', s.recipe, '--skip-bad-lines'], { cwd: s.dir });
    expect(skip.code).toBe(0);
    expect(skip.stderr).toMatch(/skipped bad line: .*000\.jsonl\.gz:3/);
    expect(skip.stdout).toMatch(/skipped bad lines: 1/);
    expect(readJsonlFile(join(s.dir, 'out/out-0000.json.gz')).map((d) => d.id)).toEqual(['d0', 'd1']);
  });

  it('invalid UTF-8 names file:line', () => {
    const s = setup();
    const lines = docs(5).map((d) => Buffer.from(JSON.stringify(d) + '\n'));
    lines[3] = Buffer.concat([Buffer.from('{"id": "d3", "text": "bad '), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}\n')]);
    writeFileSync(s.docsPath, gzipSync(Buffer.concat(lines)));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/000\.jsonl\.gz:4: .*UTF-8/i);
    expectNoOutput(s.dir);
  });

  it('a missing id names file:line', () => {
    const s = setup();
    const rows = docs(5).map((d) => JSON.stringify(d));
    rows[1] = JSON.stringify({ text: 'no id here' });
    writeFileSync(s.docsPath, gzLines(rows));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/documents\/000\.jsonl\.gz:2: document has no 'id'/);
    expectNoOutput(s.dir);
  });

  it('mismatched attribute ids name both files and the line', () => {
    const s = setup();
    writeJsonl(s.attrPath, docs(5).map((d, i) => ({ id: i === 3 ? 'other' : d.id, attributes: {} })));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/attributes\/score\/000\.jsonl\.gz:4: mismatched ids: documents file .*documents\/000\.jsonl\.gz has id "d3"/);
    expectNoOutput(s.dir);
  });

  it('a short attributes file is an error, not silent partial merging', () => {
    const s = setup();
    writeJsonl(s.attrPath, docs(3).map((d) => ({ id: d.id, attributes: {} })));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/documents\/000\.jsonl\.gz:4: attributes file .*score\/000\.jsonl\.gz ends after line 3/);
    expectNoOutput(s.dir);
  });

  it('a long attributes file is an error too', () => {
    const s = setup();
    writeJsonl(s.attrPath, docs(7).map((d) => ({ id: d.id, attributes: {} })));
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/000\.jsonl\.gz:6: attributes file .* has more lines than the documents file/);
    expectNoOutput(s.dir);
  });

  it('an unknown config key names the field and line', () => {
    const s = setup();
    writeFileSync(s.recipe, readFileSync(s.recipe, 'utf8').replace('max_size_in_bytes: 1000000', 'max_size_in_bytes: 1000000\n      max_size_in_mb: 5'));
    const r = runCli(['mix', '-c', s.recipe], { cwd: s.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/recipe\.yaml:8: streams\[0\]\.output: unknown key 'max_size_in_mb'/);
    expectNoOutput(s.dir);
  });

  it('invalid YAML names the line', () => {
    const s = setup();
    writeFileSync(s.recipe, 'streams:\n  - name: out\n   documents: [x]\n');
    const r = runCli(['mix', '-c', s.recipe], { cwd: s.dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/recipe\.yaml:3: /);
  });

  it('never modifies its inputs', () => {
    const s = setup();
    const hash = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');
    const before = [s.docsPath, s.attrPath].map((p) => [hash(p), statSync(p).mtimeMs]);
    expect(runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir }).code).toBe(0);
    expect([s.docsPath, s.attrPath].map((p) => [hash(p), statSync(p).mtimeMs])).toEqual(before);
  });

  it('an empty input after the first is processed, not skipped, and reported', () => {
    const s = setup();
    writeJsonl(join(s.dir, 'data/documents/001.jsonl.gz'), []);
    writeJsonl(join(s.dir, 'data/attributes/score/001.jsonl.gz'), []);
    const r = runCli(['mix', '-c', s.recipe], { cwd: s.dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/2 file\(s\)/);
  });

  it('truncating the documents mid-line still leaves no final-name output', () => {
    const s = setup({ docsFile: '000.jsonl' });
    writeJsonl(s.docsPath, docs(5));
    truncateSync(s.docsPath, statSync(s.docsPath).size - 10);
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/000\.jsonl:5: malformed JSON/);
    expectNoOutput(s.dir);
  });
});

describe('--skip-bad-lines keeps documents and attributes aligned', () => {
  it('skips invalid UTF-8 lines in the middle and at the end of the documents file', () => {
    const s = setup();
    const lines: Buffer[] = docs(5).map((d) => Buffer.from(JSON.stringify(d) + '\n'));
    const broken = (i: number): Buffer => Buffer.concat([Buffer.from(`{"id": "d${i}", "text": "bad `), Buffer.from([0xff]), Buffer.from('"}\n')]);
    lines[1] = broken(1);
    lines[4] = broken(4);
    writeFileSync(s.docsPath, gzipSync(Buffer.concat(lines)));
    const r = runCli(['mix', '-c', s.recipe, '--skip-bad-lines'], { cwd: s.dir });
    expect(r.stderr).toMatch(/000\.jsonl\.gz:2: .*UTF-8/);
    expect(r.stderr).toMatch(/000\.jsonl\.gz:5: .*UTF-8/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/skipped bad lines: 2/);
    // d2 (score 0.2) kept, d3 (0.3) excluded: attribute lines stayed matched to their documents.
    expect(readJsonlFile(join(s.dir, 'out/out-0000.json.gz')).map((d) => d.id)).toEqual(['d0', 'd2']);
  });
});

describe('the built CLI runs jq filters through its bundled jq worker', () => {
  it('keeps by a jq include, and reports a jq error with file:line (Dolma case M7)', () => {
    const s = setup({
      recipe: `streams:
  - name: out
    documents: [data/documents/*]
    attributes: [score]
    output: {path: out}
    filter:
      syntax: jq
      include: [".attributes.score[0][2] >= 0.3"]
`,
    });
    const r = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(r.stderr).toBe('');
    expect(readJsonlFile(join(s.dir, 'out/out-0000.json.gz')).map((d) => d.id)).toEqual(['d3', 'd4']);
    writeFileSync(s.recipe, readFileSync(s.recipe, 'utf8').replace('.attributes.score[0][2] >= 0.3', '.attributes.missing.x != null'));
    const bad = runCli(['mix', '-c', s.recipe, '--quiet'], { cwd: s.dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/000\.jsonl\.gz:1: .*cannot index null/);
  });
});
