// One local run at a time per output folder (`<output>/.assay/write.lock`) or shared state file (`<file>.lock`): two mixes into one folder would interleave shards, ledger parts and manifests.
import { mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AssayError } from '../errors.js';
import { acquireLockFile, describeHolder } from './lock-file.js';

export const outputLockPath = (folder: string): string => join(folder, '.assay', 'write.lock');

/**
 * Takes every output folder's lock, or none: a folder another run is writing is an error naming it and that run
 * (the app refuses overlapping jobs itself; this also covers a CLI run beside the app, or two in terminals). A lock
 * whose process is gone is taken over. Returns the release, which also removes the folders it had to create while
 * they are still empty (a run that failed before writing leaves nothing behind).
 */
export async function lockOutputFolders(folders: readonly string[], what: string, log?: (line: string) => void): Promise<() => void> {
  const { held, created, releaseAll } = lockSet();
  try {
    for (const folder of [...new Set(folders.map((f) => resolve(f)))].sort()) {
      let first: string | undefined;
      try {
        first = mkdirSync(join(folder, '.assay'), { recursive: true });
      } catch {
        continue; // nothing can be written there: the run fails on its own, saying why
      }
      if (first !== undefined) created.push(...ancestorsFrom(first, join(folder, '.assay')));
      const lock = await acquireLockFile(outputLockPath(folder), {
        what,
        label: `the output lock of ${folder}`,
        ...(log ? { log } : {}),
        cancelled: () => new AssayError('CANCELLED', `${what} cancelled`),
        busy: (holder) => {
          throw new AssayError('IO', `another run is writing here (${describeHolder(holder)}); wait for it to finish, or write this run elsewhere`, { file: folder });
        },
      });
      if (lock !== 'unavailable') held.push(lock);
    }
  } catch (e) {
    releaseAll();
    throw e;
  }
  return releaseAll;
}

/**
 * One run at a time writes `file`, state that runs read and then rewrite (a dedupe's bloom filter): `<file>.lock`
 * beside it, held from before the run reads the file until it has published it, or an error naming the file and
 * the run that holds it. A lock whose process is gone is taken over. The release also removes the folders made
 * for the lock while they are empty.
 */
export async function lockOutputFile(file: string, what: string, log?: (line: string) => void): Promise<() => void> {
  const path = resolve(file);
  const { held, created, releaseAll } = lockSet();
  try {
    const first = mkdirSync(dirname(path), { recursive: true });
    if (first !== undefined) created.push(...ancestorsFrom(first, dirname(path)));
  } catch {
    return releaseAll; // nothing can be written there: the run fails on its own, saying why
  }
  try {
    const lock = await acquireLockFile(`${path}.lock`, {
      what,
      label: `the lock of ${path}`,
      ...(log ? { log } : {}),
      cancelled: () => new AssayError('CANCELLED', `${what} cancelled`),
      busy: (holder) => {
        throw new AssayError('IO', `another run is using this file (${describeHolder(holder)}); wait for it to finish, or give this run another file`, { file: path });
      },
    });
    if (lock !== 'unavailable') held.push(lock);
  } catch (e) {
    releaseAll();
    throw e;
  }
  return releaseAll;
}

/**
 * Locks taken one after another and the folders made to hold them: `releaseAll` drops the locks, then removes those
 * folders while they are empty (deepest first: `.assay` before its folder), so a run that wrote nothing leaves nothing.
 */
export function lockSet(): { held: { release: () => void }[]; created: string[]; releaseAll: () => void } {
  const held: { release: () => void }[] = [];
  const created: string[] = [];
  const releaseAll = (): void => {
    for (const h of held.splice(0).reverse()) h.release();
    for (const dir of created.splice(0).reverse()) {
      try {
        rmdirSync(dir);
      } catch {
        /* not empty: the run wrote there */
      }
    }
  };
  return { held, created, releaseAll };
}

/** `first` (the first folder mkdir created) and each folder below it down to `last`, in creation order. */
export function ancestorsFrom(first: string, last: string): string[] {
  const out = [last];
  for (let d = last; d !== first && d.length > first.length; ) {
    d = join(d, '..');
    out.unshift(d);
  }
  return out;
}
