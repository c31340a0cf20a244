// One writer at a time per attribute file: a second run writing the same attribute file (tag, dedupe or minhash; the app beside a terminal, two terminals) waits for the first.
import { rmdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssayError } from '../errors.js';
import { acquireLockFile, describeHolder, removeDeadLock } from './lock-file.js';
import { lockSet } from './output-lock.js';

/** Beside the file's completion marker: `<dir>/.assay-done/<file>.lock`. */
export const attributeLockPath = (output: string): string => join(dirname(output), '.assay-done', `${basename(output)}.lock`);

/**
 * Locks each output (sorted, so two runs with overlapping attribute sets cannot wait on each other) for as long as
 * `what` (`tag`, `dedupe`, `minhash`) writes it. Both runs writing `<output>.tmp` at once would take each other's
 * temporary file. A folder lock would refuse Slurm's array tasks, which share an experiment; a held file is waited
 * for (`waited` says so: tag then finds the other run's markers and skips the file; dedupe and MinHash write it
 * again). A holder that is gone is taken over, as with every lock.
 */
export async function lockAttributeFiles(
  outputs: readonly string[],
  what: 'tag' | 'dedupe' | 'minhash',
  opts: { signal?: AbortSignal; log?: (line: string) => void },
): Promise<{ release: () => void; waited: boolean }> {
  let waited = false;
  const cancelled = (): AssayError => new AssayError('CANCELLED', `${what} cancelled`);
  // Tag keeps the marker folder: the file's markers go there before the lock is released, and a pool's other tasks
  // lock their files in it meanwhile (removing it while empty raced their mkdir: ENOENT). Dedupe and MinHash write
  // no markers, so theirs goes when empty.
  const set = lockSet({ tidy: what !== 'tag' });
  try {
    for (const output of [...new Set(outputs)].sort()) {
      if (opts.signal?.aborted) throw cancelled();
      const path = attributeLockPath(output);
      if (!set.makeDir(dirname(path))) continue; // nothing can be written there: opening the output fails, saying why
      set.add(
        await acquireLockFile(path, {
          what: `assay ${what}`,
          label: `the lock of ${output}`,
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.log ? { log: opts.log } : {}),
          cancelled,
          busy: (holder, first) => {
            waited = true;
            if (first) opts.log?.(`${output}: waiting for ${describeHolder(holder)}, which is writing this file`);
          },
        }),
      );
    }
  } catch (e) {
    release();
    throw e;
  }
  return { release, waited };

  function release(): void {
    set.releaseAll();
    if (what === 'tag') return;
    // A killed run's lock folder too: the rerun took its lock over, and leaves the folder as a clean run does.
    for (const dir of new Set(outputs.map((o) => dirname(attributeLockPath(o))))) {
      try {
        rmdirSync(dir);
      } catch {
        /* not empty (or gone) */
      }
    }
  }
}

/**
 * For outputs a run skips as done: removes their locks whose holders are gone. A tag run killed after writing a
 * file's markers and before releasing its lock leaves one; the rerun skips the file by its markers and would never
 * take that lock (the next run to write the file would).
 */
export function removeDeadAttributeLocks(outputs: readonly string[], log?: (line: string) => void): void {
  for (const output of outputs) removeDeadLock(attributeLockPath(output), { label: `the lock of ${output}`, ...(log ? { log } : {}) });
}
