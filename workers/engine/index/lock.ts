// One index build at a time per workspace, across processes and hosts: `.assay/index.lock`, held for the whole build.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AssayError } from '../errors.js';
import { acquireLockFile } from '../io/lock-file.js';

export const lockPath = (root: string): string => join(root, '.assay', 'index.lock');

export interface LockOptions {
  signal?: AbortSignal;
  log?: (line: string) => void;
  /** How often a waiting build looks again (tests shorten it). */
  pollMs?: number;
  /** Age after which an untouched lock is taken over (tests shorten it). */
  staleMs?: number;
}

/**
 * Runs `fn` holding the workspace's index lock. Two builds at once each listed the dataset before the other wrote,
 * and the one that committed last left out attribute files the other had indexed (or, for two first builds, renamed
 * an incomplete index into place); with the lock the second lists the files only after the first has finished.
 * A lock whose process is gone (same host) or that nobody has touched for 10 minutes (another host) is taken over.
 */
export async function withIndexLock<T>(root: string, opts: LockOptions, fn: () => Promise<T>): Promise<T> {
  const path = lockPath(root);
  // Not a dataset (or nothing can be written there): the build fails on its own, saying why, and leaves no `.assay/`.
  if (!existsSync(join(root, 'documents'))) return fn();
  try {
    mkdirSync(join(root, '.assay'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return fn();
  }
  const lock = await acquireLockFile(path, {
    ...opts,
    what: 'index build',
    label: 'the index lock',
    cancelled: () => new AssayError('CANCELLED', 'indexing cancelled (while waiting for another index build)'),
    busy: (holder, first) => {
      if (first) opts.log?.(`waiting for another index build (process ${holder.pid} on ${holder.host}) to finish`);
    },
  });
  if (lock === 'unavailable') return fn();
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
