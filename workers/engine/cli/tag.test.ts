// `assay tag` and `assay list` through the real CLI: flags, config files, options, errors.
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonlFile, tempDir, writeJsonl } from '../testing.js';
import { parseTaggerOptions } from './tag.js';
import { ensureBuilt, runCli, withoutProgress } from './run-cli.js';

const { dir, cleanup } = tempDir();
afterAll(cleanup);
beforeAll(() => {
  ensureBuilt();
  writeJsonl(join(dir, 'ds/documents/a.jsonl.gz'), [
    { id: '1', text: 'Hello world.\nSecond line here.', metadata: { url: 'https://bad.example.com/x' } },
    { id: '2', text: 'Another document with words in it.', metadata: { url: 'https://good.example.org/y' } },
  ]);
});

describe('assay tag', () => {
  it('tags with --documents/--taggers/--experiment and prints a summary; a rerun skips by marker', () => {
    const r = runCli(['tag', '--documents', 'ds/documents/*.jsonl.gz', '--taggers', 'char_length_v1', 'gopher_v1', '--experiment', 'exp'], { cwd: dir });
    expect(withoutProgress(r.stderr)).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/tagged 1 file\(s\), 2 docs/);
    const rows = readJsonlFile(join(dir, 'ds/attributes/exp/a.jsonl.gz'));
    expect(Object.keys(rows[0]!.attributes as object)).toContain('exp__char_length_v1__length');
    expect(Object.keys(rows[0]!.attributes as object)).toContain('exp__gopher_v1__word_count');
    const again = runCli(['tag', '--documents', 'ds/documents/*.jsonl.gz', '--taggers', 'char_length_v1', 'gopher_v1', '--experiment', 'exp'], { cwd: dir });
    expect(again.stdout).toMatch(/skipped 1 already tagged/);
  });

  it('--keep-existing skips a file marked complete even where --ignore-existing or the config says to redo it', () => {
    const args = ['tag', '--documents', 'ds/documents/*.jsonl.gz', '--taggers', 'char_length_v1', '--experiment', 'keep'];
    expect(runCli(args, { cwd: dir }).stdout).toMatch(/tagged 1 file\(s\)/);
    expect(runCli([...args, '--ignore-existing'], { cwd: dir }).stdout).toMatch(/tagged 1 file\(s\)/);
    expect(runCli([...args, '--ignore-existing', '--keep-existing'], { cwd: dir }).stdout).toMatch(/tagged 0 file\(s\).*skipped 1 already tagged/);
    writeFileSync(join(dir, 'keep.yaml'), 'documents: [ds/documents/*.jsonl.gz]\ntaggers: [char_length_v1]\nexperiment: keep\nignore_existing: true\n');
    expect(runCli(['tag', '-c', 'keep.yaml'], { cwd: dir }).stdout).toMatch(/tagged 1 file\(s\)/);
    expect(runCli(['tag', '-c', 'keep.yaml', '--keep-existing'], { cwd: dir }).stdout).toMatch(/skipped 1 already tagged/);
  });

  it('--no-manifest (a cluster task) tags and marks files but leaves the run manifest to a later run', () => {
    const args = ['tag', '--documents', 'ds/documents/*.jsonl.gz', '--taggers', 'char_length_v1', '--experiment', 'nomani'];
    const manifest = join(dir, 'ds/attributes/nomani/.assay/manifest.json');
    expect(runCli([...args, '--no-manifest'], { cwd: dir }).stdout).toMatch(/tagged 1 file\(s\)/);
    expect(existsSync(join(dir, 'ds/attributes/nomani/a.jsonl.gz'))).toBe(true);
    expect(existsSync(manifest)).toBe(false);
    // The final step's form: every file done, so it only writes the manifest, from the marker.
    expect(runCli([...args, '--keep-existing'], { cwd: dir }).stdout).toMatch(/tagged 0 file\(s\).*skipped 1 already tagged/);
    expect((JSON.parse(readFileSync(manifest, 'utf8')) as { outputs: unknown[] }).outputs).toHaveLength(1);
  });

  it('says so on stderr when `**` does not follow a folder link back into the documents (each file tagged once)', () => {
    writeJsonl(join(dir, 'loopds/documents/a.jsonl.gz'), [{ id: '1', text: 'Some words.' }]);
    mkdirSync(join(dir, 'loopds/documents/sub'));
    symlinkSync('..', join(dir, 'loopds/documents/sub/loop'));
    const r = runCli(['tag', '--documents', 'loopds/documents/**/*.jsonl.gz', '--taggers', 'char_length_v1'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(withoutProgress(r.stderr)).toBe("loopds/documents/sub/loop: not followed by 'loopds/documents/**/*.jsonl.gz': a symbolic link to loopds/documents, whose files the pattern already lists (once each)\n");
    expect(r.stdout).toMatch(/tagged 1 file\(s\), 1 docs/);
    expect(readdirSync(join(dir, 'loopds/attributes/char_length_v1')).filter((n) => !n.startsWith('.'))).toEqual(['a.jsonl.gz']);
  });

  it('passes tagger options from --tagger-option and from a Dolma-style config file', () => {
    writeFileSync(join(dir, 'blocked.txt'), 'bad.example.com\n');
    const r = runCli(['tag', '--documents', 'ds/documents/*', '--taggers', 'domain_blocklist_v1', '--tagger-option', 'domain_blocklist_v1.lists=blocked.txt', '-q'], { cwd: dir });
    expect(r.stderr).toBe('');
    const rows = readJsonlFile(join(dir, 'ds/attributes/domain_blocklist_v1/a.jsonl.gz'));
    expect(rows.map((x) => Object.keys(x.attributes as object).length > 0)).toEqual([true, false]);
    writeFileSync(
      join(dir, 'tag.yaml'),
      'documents: [ds/documents/*]\ntaggers: [domain_blocklist_v1]\nexperiment: fromfile\nassay:\n  tagger_options:\n    domain_blocklist_v1: {lists: [blocked.txt]}\n',
    );
    const f = runCli(['-c', 'tag.yaml', 'tag', '-q'], { cwd: dir });
    expect(f.code, f.stderr).toBe(0);
    expect(existsSync(join(dir, 'ds/attributes/fromfile/a.jsonl.gz'))).toBe(true);
  });

  it('fails clearly: unknown tagger, missing option file, unknown config key, no documents', () => {
    const unknown = runCli(['tag', '--documents', 'ds/documents/*', '--taggers', 'gopher_v7'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown tagger 'gopher_v7'.*gopher_v1/);
    const missing = runCli(['tag', '--documents', 'ds/documents/*', '--taggers', 'url_blocklist_v1', '--tagger-option', 'url_blocklist_v1.lists=nope.txt'], { cwd: dir });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/nope\.txt/);
    writeFileSync(join(dir, 'bad.yaml'), 'documents: [ds/documents/*]\ntaggers: [char_length_v1]\nexperimnet: x\n');
    const badKey = runCli(['tag', '-c', 'bad.yaml'], { cwd: dir });
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/bad\.yaml:3: \(root\): unknown key 'experimnet'/);
    const none = runCli(['tag', '--documents', 'nothing/*', '--taggers', 'char_length_v1'], { cwd: dir });
    expect(none.stderr).toMatch(/no documents match/);
  });

  it('writes attribute files at gzip level 4 unless --compression-level or the config names one; a refused level fails before any file', () => {
    // Enough varied text for levels 4 and 6 to compress differently.
    const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda'];
    const docs = Array.from({ length: 400 }, (_, i) => ({ id: `d${i}`, text: Array.from({ length: 20 + (i % 13) }, (_, k) => words[(i * 7 + k * k) % words.length]).join(' ') + '.' }));
    writeJsonl(join(dir, 'levels/documents/a.jsonl.gz'), docs);
    const file = join(dir, 'levels/attributes/lv/a.jsonl.gz');
    /** The level whose one-shot gzip of the file's content gives the file's bytes. */
    const levelOf = (path = file): number | undefined => {
      const gz = readFileSync(path);
      const raw = gunzipSync(gz);
      return [1, 2, 3, 4, 5, 6, 7, 8, 9].find((level) => gzipSync(raw, { level }).equals(gz));
    };
    const args = ['tag', '--documents', 'levels/documents/*.jsonl.gz', '--taggers', 'char_length_v1', 'gopher_v1', '--experiment', 'lv', '--ignore-existing'];
    expect(runCli(args, { cwd: dir }).code).toBe(0);
    expect(levelOf()).toBe(4);
    expect(runCli([...args, '--compression-level', '6'], { cwd: dir }).code).toBe(0);
    expect(levelOf()).toBe(6);
    writeFileSync(join(dir, 'levels.yaml'), 'documents: [levels/documents/*.jsonl.gz]\ntaggers: [char_length_v1, gopher_v1]\nexperiment: lv\nignore_existing: true\nassay: {compression_level: 9}\n');
    expect(runCli(['tag', '-c', 'levels.yaml'], { cwd: dir }).code).toBe(0);
    expect(levelOf()).toBe(9);
    // The flag wins over the config.
    expect(runCli(['tag', '-c', 'levels.yaml', '--compression-level', '1'], { cwd: dir }).code).toBe(0);
    expect(levelOf()).toBe(1);
    // Pool processes get it too.
    writeJsonl(join(dir, 'levels/documents/b.jsonl.gz'), docs.slice(0, 300));
    expect(runCli([...args, '--compression-level', '6', '--processes', '2'], { cwd: dir }).code).toBe(0);
    expect(levelOf()).toBe(6);
    expect(levelOf(join(dir, 'levels/attributes/lv/b.jsonl.gz'))).toBe(6);
    const before = readFileSync(file);
    const bad = runCli([...args, '--compression-level', '12'], { cwd: dir });
    expect(bad.code).not.toBe(0);
    expect(withoutProgress(bad.stderr)).toBe('assay: error: compression_level: gzip level must be an integer in [0, 9], got 12\n');
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it('parses TAGGER.KEY=VALUE options, JSON values when they parse', () => {
    expect(parseTaggerOptions(['a.k=1', 'a.s=x', 'b.l=["p","q"]'])).toEqual({ a: { k: 1, s: 'x' }, b: { l: ['p', 'q'] } });
    expect(() => parseTaggerOptions(['nodot'])).toThrow(/TAGGER\.KEY=VALUE/);
  });
});

describe('assay list', () => {
  it('lists every family with descriptions, and outputs as JSON', () => {
    const r = runCli(['list']);
    expect(r.code).toBe(0);
    for (const name of ['gopher_v1', 'c4_v2', 'fineweb_quality', 'lid176', 'eld_lang_id', 'word_stats', 'fasttext_classifier']) expect(r.stdout).toContain(name);
    const json = JSON.parse(runCli(['list', '--json']).stdout) as { name: string; outputs: unknown[] }[];
    expect(json.find((t) => t.name === 'gopher_v1')?.outputs.length).toBeGreaterThan(10);
  });
});
