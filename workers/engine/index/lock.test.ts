// Index builds one at a time per workspace: a second build waits, then lists the dataset as it is; stale locks are taken over.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir, writeJsonl } from '../testing.js';
import { buildIndex, PreviewEngine } from './index.js';
import { lockPath, withIndexLock } from './lock.js';

const FILES = ['a', 'b', 'c'];

function dataset(root: string): void {
  for (const f of FILES) {
    writeJsonl(join(root, `documents/${f}.jsonl.gz`), [1, 2].map((i) => ({ id: `${f}${i}`, text: `text ${f} ${i}`, source: 'web' })));
    writeJsonl(join(root, `attributes/first/${f}.jsonl.gz`), [1, 2].map((i) => ({ id: `${f}${i}`, attributes: { k: [[0, 4, i]] } })));
  }
}

/** What another tag job writes meanwhile: a second attribute set, file by file. */
const secondSet = (root: string): void => {
  for (const f of FILES) writeJsonl(join(root, `attributes/second/${f}.jsonl.gz`), [1, 2].map((i) => ({ id: `${f}${i}`, attributes: { j: [[0, 4, 10 * i]] } })));
};

function catalogue(root: string): string[] {
  const e = PreviewEngine.open(root);
  try {
    return e.catalogue().map((k) => `${k.set}/${k.key}:${k.docs}`);
  } finally {
    e.close();
  }
}

const deadPid = (): number => {
  const r = spawnSync('true');
  return r.pid as number;
};

describe('the index build lock', () => {
  it('a build started while another holds the lock waits, then indexes the files written meanwhile', async () => {
    const root = scratchDir();
    dataset(root);
    let release!: () => void;
    const held = withIndexLock(root, {}, () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 20));
    const log: string[] = [];
    const build = buildIndex(root, { log: (l) => log.push(l), search: false });
    await new Promise((r) => setTimeout(r, 300));
    expect(log.some((l) => /^waiting for another index build \(process \d+ on .+\) to finish$/.test(l))).toBe(true);
    // Written while the build waits: without the lock it would have listed the dataset already and missed them.
    secondSet(root);
    release();
    await held;
    const r = await build;
    expect(r).toMatchObject({ docs: 6, attributeSets: 2 });
    expect(catalogue(root)).toEqual(['first/k:6', 'second/j:6']);
    expect(existsSync(lockPath(root))).toBe(false);
  });

  it('two first builds at once both finish, one after the other, and the index has every attribute file', async () => {
    const root = scratchDir();
    dataset(root);
    secondSet(root);
    const logs: string[][] = [[], []];
    const [a, b] = await Promise.all(logs.map((log) => buildIndex(root, { log: (l) => log.push(l), search: false })));
    expect([a?.docs, b?.docs]).toEqual([6, 6]);
    // The second found the first's index: nothing left to read.
    expect([a?.skippedFiles, b?.skippedFiles].sort()).toEqual([0, 3]);
    expect(logs.flat().filter((l) => l.startsWith('waiting for another index build')).length).toBe(1);
    expect(catalogue(root)).toEqual(['first/k:6', 'second/j:6']);
  });

  it('takes over a lock whose process is gone, and one from another host nobody has touched for too long', async () => {
    const root = scratchDir();
    dataset(root);
    mkdirSync(join(root, '.assay'), { recursive: true });
    writeFileSync(lockPath(root), `${hostname()}\n${deadPid()}\nx\n`);
    const log: string[] = [];
    await buildIndex(root, { log: (l) => log.push(l), search: false });
    expect(log.some((l) => /^taking over the index lock of process \d+ on .+ \(the process is gone\)$/.test(l))).toBe(true);
    expect(existsSync(lockPath(root))).toBe(false);

    writeFileSync(lockPath(root), `other-host\n1\nx\n`);
    const old = new Date(Date.now() - 120_000);
    utimesSync(lockPath(root), old, old);
    const taken: string[] = [];
    await withIndexLock(root, { staleMs: 60_000, log: (l) => taken.push(l) }, async () => undefined);
    expect(taken).toEqual(['taking over the index lock of process 1 on other-host (untouched for too long)']);
  });

  it('waits for a live holder on another host until cancelled, and leaves its lock alone', async () => {
    const root = scratchDir();
    dataset(root);
    mkdirSync(join(root, '.assay'), { recursive: true });
    writeFileSync(lockPath(root), `other-host\n1\nx\n`);
    const ctl = new AbortController();
    const log: string[] = [];
    const waiting = withIndexLock(root, { signal: ctl.signal, pollMs: 10, log: (l) => log.push(l) }, async () => 'ran');
    await new Promise((r) => setTimeout(r, 100));
    ctl.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(log).toEqual(['waiting for another index build (process 1 on other-host) to finish']);
    expect(existsSync(lockPath(root))).toBe(true);
  });

  it('releases the lock when the build fails; a folder that is not a dataset gets no lock (and no .assay/)', async () => {
    const root = scratchDir();
    dataset(root);
    await expect(withIndexLock(root, {}, async () => Promise.reject(new Error('disk on fire')))).rejects.toThrow('disk on fire');
    expect(existsSync(lockPath(root))).toBe(false);
    const bare = scratchDir();
    await expect(buildIndex(bare)).rejects.toThrow(/has no documents\/ folder/);
    expect(existsSync(join(bare, '.assay'))).toBe(false);
  });
});
