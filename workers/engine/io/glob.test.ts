// expandGlobs: the Rust glob crate's matching rules and order, styles, dedupe, files only, .tmp skipped.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../testing.js';
import { compareCodePoints, expandGlobs, hasGlob } from './glob.js';

const tmp = tempDir('assay-io-glob-');
const root = tmp.dir;
afterAll(tmp.cleanup);

const FILES = [
  'a/x.gz',
  'a/y.gz',
  'a/z.txt',
  'a/.hidden.gz',
  'a/part.gz.tmp',
  'a/b.gz',
  'a/b/c.gz',
  'a/sub/w.gz',
  'a/sub/deep/v.gz',
  'a-b/q.gz',
  'data1.gz',
  'data2.gz',
  'dataX.gz',
  'data].gz',
  'e/f/g/h.gz',
];

beforeAll(() => {
  for (const f of FILES) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    writeFileSync(join(root, f), f);
  }
  mkdirSync(join(root, 'dir.gz'));
  symlinkSync('..', join(root, 'a/sub/loop')); // a cycle for `**`
  symlinkSync(join(root, 'a/x.gz'), join(root, 'linked.gz'));
  // Broken links live in their own folder, two levels down so the other patterns never reach it: every pattern that reaches one fails.
  mkdirSync(join(root, 'z/broken'), { recursive: true });
  writeFileSync(join(root, 'z/broken/fine.txt'), 'x');
  symlinkSync(join(root, 'missing'), join(root, 'z/broken/dangling.gz'));
  symlinkSync('loop2.gz', join(root, 'z/broken/loop1.gz'));
  symlinkSync('loop1.gz', join(root, 'z/broken/loop2.gz'));
  symlinkSync(join(root, 'nowhere'), join(root, 'z/broken/gone'));
});

const g = (...patterns: string[]): Promise<string[]> => expandGlobs(patterns, { cwd: root });

describe('expandGlobs', () => {
  it('`*` stays within one component, matches hidden names, skips .tmp and directories', async () => {
    expect(await g('a/*.gz')).toEqual(['a/.hidden.gz', 'a/b.gz', 'a/x.gz', 'a/y.gz']);
    expect(await g('*/*.gz')).toEqual(['a/.hidden.gz', 'a/b.gz', 'a/x.gz', 'a/y.gz', 'a-b/q.gz']);
    expect(await g('*.gz')).toEqual(['data1.gz', 'data2.gz', 'dataX.gz', 'data].gz', 'linked.gz']);
  });

  it('`**` is zero or more directories; order is per-directory sorted depth-first (the crate order)', async () => {
    // a/b/c.gz precedes a/b.gz: names are compared component by component, not as whole strings.
    expect(await g('a/**/*.gz')).toEqual(['a/.hidden.gz', 'a/b/c.gz', 'a/b.gz', 'a/sub/deep/v.gz', 'a/sub/w.gz', 'a/x.gz', 'a/y.gz']);
    expect(await g('a/**/x.gz')).toEqual(['a/x.gz']);
    expect(await g('**/h.gz')).toEqual(['e/f/g/h.gz']);
    expect(await g('e/**/**/g/*')).toEqual(['e/f/g/h.gz']);
    // A pattern ending in `**` names directories only, and only files are returned.
    expect(await g('a/**')).toEqual([]);
  });

  it('`?` and classes ([abc], [!abc], [a-z], []]) match one character', async () => {
    expect(await g('data?.gz')).toEqual(['data1.gz', 'data2.gz', 'dataX.gz', 'data].gz']);
    expect(await g('data[0-9].gz')).toEqual(['data1.gz', 'data2.gz']);
    expect(await g('data[!0-9].gz')).toEqual(['dataX.gz', 'data].gz']);
    expect(await g('data[2X].gz')).toEqual(['data2.gz', 'dataX.gz']);
    expect(await g('data[]].gz')).toEqual(['data].gz']);
    expect(await g('a?b/*')).toEqual(['a-b/q.gz']);
  });

  it('keeps the pattern style: relative stays relative (a leading ./ is dropped, as the crate does), absolute stays absolute', async () => {
    expect(await g('./a/x*')).toEqual(['a/x.gz']);
    expect(await expandGlobs([join(root, 'a/x*')])).toEqual([join(root, 'a/x.gz')]);
    expect(await g('a//sub/*.gz')).toEqual(['a/sub/w.gz']);
    expect(await g('e/f/../f/g/*.gz')).toEqual(['e/f/../f/g/h.gz']);
  });

  it('a pattern without wildcards names the file itself if it exists as a file', async () => {
    expect(await g('a/x.gz')).toEqual(['a/x.gz']);
    expect(await g('linked.gz')).toEqual(['linked.gz']);
    expect(await g('a/nope.gz', 'a/sub', 'a/part.gz.tmp')).toEqual([]);
  });

  it('reports a dangling or looping symlink the pattern reaches, naming it, instead of skipping it', async () => {
    await expect(g('z/broken/*.gz')).rejects.toMatchObject({ code: 'IO', file: 'z/broken/dangling.gz', message: expect.stringMatching(/dangling symbolic link/) });
    await expect(g('z/broken/dangling.gz')).rejects.toMatchObject({ code: 'IO', file: 'z/broken/dangling.gz' });
    await expect(g('z/broken/loop1.gz')).rejects.toMatchObject({ code: 'IO', file: 'z/broken/loop1.gz', message: expect.stringMatching(/symbolic link loop/) });
    await expect(g('z/broken/loop*')).rejects.toMatchObject({ message: expect.stringMatching(/loop1\.gz: is a symbolic link loop/) });
    // A folder link that leads nowhere, below which the pattern goes on.
    await expect(g('z/broken/gone/*.gz')).rejects.toMatchObject({ code: 'IO', file: 'z/broken/gone' });
    await expect(g('z/broken/g*/*.gz')).rejects.toMatchObject({ code: 'IO', file: 'z/broken/gone' });
    await expect(g('z/broken/**/*.gz')).rejects.toMatchObject({ code: 'IO' });
    // Links the pattern does not reach are none of its business.
    expect(await g('z/broken/*.txt')).toEqual(['z/broken/fine.txt']);
  });

  it('says which folder link `**` does not follow because it leads back to a folder already listed', async () => {
    const notes: string[] = [];
    expect(await expandGlobs(['a/**/*.gz'], { cwd: root, onNote: (m) => notes.push(m) })).toEqual(await g('a/**/*.gz'));
    expect(notes).toEqual(["a/sub/loop: not followed by 'a/**/*.gz': a symbolic link to a, whose files the pattern already lists (once each)"]);
    // A second path to a folder, the link sorting first (`latest -> v3`): the real folder is the one not followed.
    mkdirSync(join(root, 'w/v3'), { recursive: true });
    writeFileSync(join(root, 'w/v3/p.gz'), '');
    symlinkSync('v3', join(root, 'w/latest'));
    notes.length = 0;
    expect(await expandGlobs(['w/**/*.gz'], { cwd: root, onNote: (m) => notes.push(m) })).toEqual(['w/latest/p.gz']);
    expect(notes).toEqual(["w/v3: not followed by 'w/**/*.gz': the same folder as w/latest (reached through a symbolic link), whose files the pattern already lists (once each)"]);
    // A link to a file, and patterns that never reach the folder link, say nothing.
    notes.length = 0;
    await expandGlobs(['*.gz', 'a/sub/*.gz', 'e/**/*.gz'], { cwd: root, onNote: (m) => notes.push(m) });
    expect(notes).toEqual([]);
  });

  it('concatenates patterns in order and drops later duplicates of the same file', async () => {
    expect(await g('a/y.gz', 'a/*.gz', 'data1.gz', join(root, 'a/x.gz'))).toEqual(['a/y.gz', 'a/.hidden.gz', 'a/b.gz', 'a/x.gz', 'data1.gz']);
  });

  it('resolves relative patterns against cwd', async () => {
    expect(await expandGlobs(['*.gz'], { cwd: join(root, 'a') })).toEqual(['.hidden.gz', 'b.gz', 'x.gz', 'y.gz']);
  });

  it('rejects invalid patterns and remote URLs as CONFIG', async () => {
    for (const bad of ['a/**b', 'a/b**', 'a/***', 'abc[def', 'abc[!]', 'x[]', 's3://bucket/documents/*.gz']) {
      await expect(g(bad)).rejects.toMatchObject({ code: 'CONFIG' });
    }
  });

  it('hasGlob and code-point ordering', () => {
    expect([hasGlob('a/*.gz'), hasGlob('a/?'), hasGlob('a/[b]'), hasGlob('a/b].gz'), hasGlob('a/b.gz')]).toEqual([true, true, true, false, false]);
    // U+FF5E sorts before U+1F600 by code point, though its UTF-16 unit is larger than a surrogate.
    expect(['😀', '～', 'z'].sort(compareCodePoints)).toEqual(['z', '～', '😀']);
  });
});
