// One local run at a time per output folder (`<output>/.assay/write.lock`) or shared state file (`<file>.lock`): two mixes into one folder would interleave shards, ledger parts and manifests.
import { mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AssayError } from '../errors.js';
import { acquireLockFile, describeHolder, type Acquired } from './lock-file.js';

export const outputLockPath = (folder: string): string => join(folder, '.assay', 'write.lock');

/**
 * Takes every output folder's lock, or none: a folder another run is writing is an error naming it and that run
 * (the app refuses overlapping jobs itself; this also covers a CLI run beside the app, or two in terminals). A lock
 * whose process is gone is taken over. Returns the release, which also removes the folders it had to create while
 * they are still empty (a run that failed before writing leaves nothing behind).
 */
export async function lockOutputFolders(folders: readonly string[], what: string, log?: (line: string) => void): Promise<() => void> {
  const set = lockSet();
  try {
    for (const folder of [...new Set(folders.map((f) => resolve(f)))].sort()) {
      if (!set.makeDir(join(folder, '.assay'))) continue;
      set.add(await refusingLock(outputLockPath(folder), folder, what, `the output lock of ${folder}`, 'another run is writing here', 'write this run elsewhere', log));
    }
  } catch (e) {
    set.releaseAll();
    throw e;
  }
  return set.releaseAll;
}

/**
 * One run at a time writes `file`, state that runs read and then rewrite (a dedupe's bloom filter): `<file>.lock`
 * beside it, held from before the run reads the file until it has published it, or an error naming the file and
 * the run that holds it. A lock whose process is gone is taken over. The release also removes the folders made
 * for the lock while they are empty.
 */
export async function lockOutputFile(file: string, what: string, log?: (line: string) => void): Promise<() => void> {
  const path = resolve(file);
  const set = lockSet();
  if (!set.makeDir(dirname(path))) return set.releaseAll;
  try {
    set.add(await refusingLock(`${path}.lock`, path, what, `the lock of ${path}`, 'another run is using this file', 'give this run another file', log));
  } catch (e) {
    set.releaseAll();
    throw e;
  }
  return set.releaseAll;
}

/** The lock at `path`, or an IO error on `file` naming the live run that holds it (a gone one's is taken over). */
function refusingLock(path: string, file: string, what: string, label: string, busyText: string, otherwise: string, log?: (line: string) => void): Promise<Acquired> {
  return acquireLockFile(path, {
    what,
    label,
    ...(log ? { log } : {}),
    cancelled: () => new AssayError('CANCELLED', `${what} cancelled`),
    busy: (holder) => {
      throw new AssayError('IO', `${busyText} (${describeHolder(holder)}); wait for it to finish, or ${otherwise}`, { file });
    },
  });
}

export interface LockSet {
  /** Keeps a lock until releaseAll (an `unavailable` one is nothing to keep). */
  add(lock: Acquired): void;
  /** mkdir -p `dir`, remembering the folders it made; false when nothing can be made there (the run then fails on its own, saying why). */
  makeDir(dir: string): boolean;
  /** Drops the locks, then removes the folders made for them while they are empty (deepest first). */
  releaseAll(): void;
}

/**
 * Locks taken one after another and the folders made to hold them, so a run that wrote nothing leaves nothing.
 * `tidy: false` keeps those folders: where other processes of the run write beside the lock at the same time,
 * removing an empty folder races their mkdir.
 */
export function lockSet(opts: { tidy?: boolean } = {}): LockSet {
  const held: { release: () => void }[] = [];
  const created: string[] = [];
  return {
    add: (lock) => {
      if (lock !== 'unavailable') held.push(lock);
    },
    makeDir: (dir) => {
      try {
        const first = mkdirSync(dir, { recursive: true });
        if (first !== undefined && opts.tidy !== false) created.push(...ancestorsFrom(first, dir));
        return true;
      } catch {
        return false;
      }
    },
    releaseAll: () => {
      for (const h of held.splice(0).reverse()) h.release();
      for (const dir of created.splice(0).reverse()) {
        try {
          rmdirSync(dir);
        } catch {
          /* not empty: the run wrote there */
        }
      }
    },
  };
}

/** `first` (the first folder mkdir created) and each folder below it down to `last`, in creation order. */
function ancestorsFrom(first: string, last: string): string[] {
  const out = [last];
  for (let d = last; d !== first && d.length > first.length; ) {
    d = join(d, '..');
    out.unshift(d);
  }
  return out;
}
