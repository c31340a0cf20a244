// runCached (built to dist/engine/code-cache.js): the CLI and pool workers run from V8's code cache give the same results as without it, and the cache is only ever a faster start.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../cli/run-cli.js';
import { REPO_ROOT, tempDir, writeJsonl } from '../testing.js';

const tmp = tempDir('assay-code-cache-');
afterAll(() => tmp.cleanup());

/** Runs `bundle` through the built runCached in a fresh Node, with the cache in `cacheDir`. */
function runBundle(bundle: string, cacheDir: string, env: NodeJS.ProcessEnv = {}, flags: string[] = []): { code: number; stdout: string; stderr: string } {
  ensureBuilt();
  const loader = pathToFileURL(join(REPO_ROOT, 'dist/engine/code-cache.js')).href;
  const script = `import { runCached } from ${JSON.stringify(loader)}; runCached(${JSON.stringify(bundle)}, ${JSON.stringify(cacheDir)}, 'test');`;
  const r = spawnSync(process.execPath, [...flags, '--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, ASSAY_CODE_CACHE: 'debug', ...env } });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

const status = (stderr: string): string | undefined => /code cache (\w+)/.exec(stderr)?.[1];

/** A small CommonJS bundle with the built bundles' digest line: enough functions for a cache, a package import() and an exit code. */
function writeBundle(name: string, digest: string, body: string): string {
  const file = join(tmp.dir, name);
  const fns = Array.from({ length: 50 }, (_, i) => `function f${i}(x) { return x * ${i} + ${i % 7}; }`).join('\n');
  const table = `const fns = [${Array.from({ length: 50 }, (_, i) => `f${i}`).join(', ')}];`;
  writeFileSync(file, `// assay-bundle ${digest}\n"use strict";\n${fns}\n${table}\n${body}\n`);
  return file;
}

describe('runCached', () => {
  const body = `let s = 0; for (let i = 0; i < 50; i++) s += fns[i](i);
globalThis.__assayImport('node:path').then((p) => { console.log(s, p.basename(__filename), typeof require('node:fs').readFileSync); process.exitCode = Number(process.env.EXIT_CODE ?? 0); });`;

  it('compiles and writes the cache on the first run, reads it on the next, and both give the same output', () => {
    const cache = join(tmp.dir, 'cache-a');
    const bundle = writeBundle('a.cjs', 'aaaaaaaaaaaaaaaaaaaa', body);
    const first = runBundle(bundle, cache);
    expect(first.code).toBe(0);
    expect(status(first.stderr)).toBe('none');
    expect(first.stderr).toContain('code cache written');
    expect(readdirSync(cache)).toHaveLength(1);
    const second = runBundle(bundle, cache);
    expect(status(second.stderr)).toBe('used');
    expect(second.stderr).not.toContain('written');
    expect(second.stdout).toBe(first.stdout);
    // Other flags (a pool's --single-threaded workers): a cache of their own, and the first one stays.
    const flagged = runBundle(bundle, cache, {}, ['--single-threaded']);
    expect(status(flagged.stderr)).toBe('none');
    expect(flagged.stdout).toBe(first.stdout);
    expect(readdirSync(cache)).toHaveLength(2);
    expect(status(runBundle(bundle, cache, {}, ['--single-threaded']).stderr)).toBe('used');
    expect(status(runBundle(bundle, cache).stderr)).toBe('used');
    // Another V8 budget (v8-tuning.ts) is other flags too: its own cache, and neither run rejects the other's.
    expect(status(runBundle(bundle, cache, { ASSAY_V8_BUDGET: 'default' }).stderr)).toBe('none');
    expect(readdirSync(cache)).toHaveLength(3);
    expect(status(runBundle(bundle, cache, { ASSAY_V8_BUDGET: 'default' }).stderr)).toBe('used');
    expect(status(runBundle(bundle, cache).stderr)).toBe('used');
    // A budget that is not a number is said and V8's own used; the bundle still runs.
    const bad = runBundle(bundle, cache, { ASSAY_V8_BUDGET: 'lots' });
    expect(bad.stderr).toContain("assay: ASSAY_V8_BUDGET: must be a number of bytes from 1000 to 999999999, or 'default'; not 'lots'; V8's default budget is used");
    expect(bad.stdout).toBe(first.stdout);
    expect(first.stdout).toBe(`${Array.from({ length: 50 }, (_, i) => i * i + (i % 7)).reduce((a, b) => a + b)} a.cjs function\n`);
  });

  it('a rebuilt bundle (new digest) never reads the old cache; a damaged cache is rejected and rewritten', () => {
    const cache = join(tmp.dir, 'cache-b');
    const v1 = writeBundle('b.cjs', 'bbbbbbbbbbbbbbbbbbbb', body);
    expect(status(runBundle(v1, cache).stderr)).toBe('none');
    // Same length, other content: V8's own check (the source's length) would accept the old cache.
    const v2 = writeBundle('b.cjs', 'cccccccccccccccccccc', body.replace('s += fns', 's -= fns'));
    const r = runBundle(v2, cache);
    expect(status(r.stderr)).toBe('none');
    expect(r.stdout.startsWith('-')).toBe(true);
    expect(readdirSync(cache)).toHaveLength(2);
    const [file] = readdirSync(cache).filter((f) => f.includes('cccc'));
    writeFileSync(join(cache, file as string), Buffer.alloc(4096, 7));
    const damaged = runBundle(v2, cache);
    expect(status(damaged.stderr)).toBe('rejected');
    expect(damaged.stdout).toBe(r.stdout);
    expect(status(runBundle(v2, cache).stderr)).toBe('used');
  });

  it('writes nothing after a failed run, when turned off, or where it cannot write, and the run goes on', () => {
    const cache = join(tmp.dir, 'cache-c');
    const bundle = writeBundle('c.cjs', 'dddddddddddddddddddd', body);
    expect(runBundle(bundle, cache, { EXIT_CODE: '3' }).code).toBe(3);
    expect(status(runBundle(bundle, cache, { ASSAY_CODE_CACHE: '0', EXIT_CODE: '0' }).stderr)).toBeUndefined();
    expect(() => readdirSync(cache)).toThrow();
    const blocked = join(tmp.dir, 'not-a-folder');
    writeFileSync(blocked, 'x');
    const r = runBundle(bundle, join(blocked, 'cache'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('code cache not written');
  });
});

describe('the assay CLI through the cache', () => {
  it('tags the same with and without the cache, importing a package (eld) and a tagger module by file URL', () => {
    ensureBuilt();
    const root = join(tmp.dir, 'dataset');
    mkdirSync(join(root, 'documents'), { recursive: true });
    writeJsonl(join(root, 'documents/a.jsonl.gz'), [
      { id: '1', text: 'The quick brown fox jumps over the lazy dog near the river bank.', source: 't' },
      { id: '2', text: 'Le renard brun saute par-dessus le chien paresseux près de la rivière.', source: 't' },
    ], { gzip: true });
    const mod = join(tmp.dir, 'length-tagger.mjs');
    writeFileSync(mod, `export default { name: 'char_count', description: 'characters', outputs: [{ type: 'chars', description: 'characters', range: '[0, ∞)', level: 'document' }],
  create: () => ({ tag: (doc) => [{ start: 0, end: doc.text.length, type: 'chars', score: doc.text.length }] }) };\n`);
    const attrs: string[] = [];
    for (const [i, cache] of ['1', '1', '0'].entries()) {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/assay.js'), 'tag', '--documents', join(root, 'documents/*.jsonl.gz'), '--taggers', 'eld_lang_id', 'char_count', '--tagger-modules', mod, '--experiment', `e${i}`, '--quiet'], {
        encoding: 'utf8',
        env: { ...process.env, ASSAY_CODE_CACHE: cache === '0' ? '0' : 'debug' },
      });
      expect(r.status, r.stderr).toBe(0);
      if (i === 1) expect(status(r.stderr)).toBe('used');
      attrs.push(gunzipSync(readFileSync(join(root, `attributes/e${i}/a.jsonl.gz`))).toString('utf8').replaceAll(`e${i}__`, 'e__'));
    }
    expect(attrs[0]).toContain('e__eld_lang_id__fr');
    expect(attrs[0]).toContain('e__char_count__chars');
    expect(attrs[1]).toBe(attrs[0]);
    expect(attrs[2]).toBe(attrs[0]);
  });

  it("a pool's worker processes run their own bundle through the cache, with the same results", () => {
    ensureBuilt();
    const root = join(tmp.dir, 'pooled');
    mkdirSync(join(root, 'documents'), { recursive: true });
    for (const f of ['a', 'b', 'c']) {
      writeJsonl(join(root, `documents/${f}.jsonl.gz`), [{ id: `${f}1`, text: `Document ${f}: the river runs through the old town.`, source: 't' }, { id: `${f}2`, text: 'Ein kurzer deutscher Satz über den Fluss.', source: 't' }], { gzip: true });
    }
    const mod = join(tmp.dir, 'length-tagger-2.mjs');
    writeFileSync(mod, `export default { name: 'char_count_2', description: 'characters', outputs: [{ type: 'chars', description: 'characters', range: '[0, ∞)', level: 'document' }],
  create: () => ({ tag: (doc) => [{ start: 0, end: doc.text.length, type: 'chars', score: doc.text.length }] }) };\n`);
    const run = (experiment: string, cache: string): { stderr: string; attrs: string } => {
      const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/assay.js'), 'tag', '--documents', join(root, 'documents/*.jsonl.gz'), '--taggers', 'gopher_v1', 'eld_lang_id', 'char_count_2', '--tagger-modules', mod, '--experiment', experiment, '--processes', '2', '--quiet'], {
        encoding: 'utf8',
        env: { ...process.env, ASSAY_CODE_CACHE: cache },
      });
      expect(r.status, r.stderr).toBe(0);
      const attrs = ['a', 'b', 'c'].map((f) => gunzipSync(readFileSync(join(root, `attributes/${experiment}/${f}.jsonl.gz`))).toString('utf8')).join('').replaceAll(`${experiment}__`, 'e__');
      return { stderr: r.stderr, attrs };
    };
    run('p0', 'debug');
    const second = run('p1', 'debug');
    // Two workers, each saying how it started: from the tag-worker bundle's cache, which the first run wrote.
    expect(second.stderr.match(/code cache used: \S+tag-worker\.cjs-/g)).toHaveLength(2);
    const off = run('p2', '0');
    expect(second.attrs).toContain('e__char_count_2__chars');
    expect(second.attrs).toContain('e__eld_lang_id__de');
    expect(off.attrs).toBe(second.attrs);
  });
});
