// expandGlobs lists only directories a pattern can reach: literal components are looked up, not listed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../testing.js';

const listed = vi.hoisted(() => [] as string[]);
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return {
    ...real,
    readdir: ((path: string, ...rest: unknown[]) => {
      listed.push(String(path));
      return (real.readdir as (...a: unknown[]) => unknown)(path, ...rest);
    }) as typeof real.readdir,
  };
});
const { expandGlobs } = await import('./glob.js');

const tmp = tempDir('assay-io-walk-');
afterAll(tmp.cleanup);

describe('expandGlobs walking', () => {
  it('an absolute a/b/*.gz lists only a/b; a/*/c/*.gz lists a and the matching c directories', async () => {
    for (const f of ['a/b/1.gz', 'a/b/2.gz', 'a/x/c/3.gz', 'a/y/c/4.gz', 'a/y/other/5.gz', 'z/6.gz']) {
      mkdirSync(join(tmp.dir, f, '..'), { recursive: true });
      writeFileSync(join(tmp.dir, f), '');
    }
    listed.length = 0;
    expect(await expandGlobs([join(tmp.dir, 'a/b/*.gz')])).toEqual([join(tmp.dir, 'a/b/1.gz'), join(tmp.dir, 'a/b/2.gz')]);
    expect(listed).toEqual([join(tmp.dir, 'a/b')]);
    listed.length = 0;
    expect(await expandGlobs(['a/*/c/*.gz'], { cwd: tmp.dir })).toEqual(['a/x/c/3.gz', 'a/y/c/4.gz']);
    expect(listed.sort()).toEqual([join(tmp.dir, 'a'), join(tmp.dir, 'a/x/c'), join(tmp.dir, 'a/y/c')]);
    listed.length = 0;
    expect(await expandGlobs(['a/b/1.gz'], { cwd: tmp.dir })).toEqual(['a/b/1.gz']);
    expect(listed).toEqual([]);
  });
});
