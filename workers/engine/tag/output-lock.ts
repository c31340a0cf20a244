// One writer at a time per attribute file: a second run tagging the same documents file (the app beside a terminal, two terminals) waits for the first.
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { AssayError } from '../errors.js';
import { acquireLockFile, describeHolder, type Acquired } from '../io/lock-file.js';
import { ancestorsFrom, lockSet } from '../io/output-lock.js';

/** Beside the file's completion marker: `<dir>/.assay-done/<file>.lock`. */
export const tagLockPath = (output: string): string => join(dirname(output), '.assay-done', `${basename(output)}.lock`);

const cancelled = (): AssayError => new AssayError('CANCELLED', 'tag cancelled');

/**
 * Locks each output (sorted, so two runs with overlapping attribute sets cannot wait on each other) for as long as
 * the file is tagged. Both runs writing `<output>.tmp` at once would take each other's temporary file. A folder lock
 * would refuse Slurm's array tasks, which share an experiment; a held file is waited for, and then tagged again
 * (the waiting run planned it before the other finished). A holder that is gone is taken over, as with every lock.
 */
export async function lockTagOutputs(outputs: readonly string[], opts: { signal?: AbortSignal; log?: (line: string) => void }): Promise<() => void> {
  // Folders made for the locks go again while empty, so a cancelled or failed run leaves no trace.
  const { held, created, releaseAll } = lockSet();
  try {
    for (const output of [...new Set(outputs)].sort()) {
      if (opts.signal?.aborted) throw cancelled();
      const path = tagLockPath(output);
      // Another task of the run, releasing its own lock, may remove the marker folder while it is empty, between this
      // mkdir and this lock: make it again, a few times, before going on without a lock.
      let lock: Acquired = 'unavailable';
      for (let attempt = 0; attempt < 3 && lock === 'unavailable'; attempt++) {
        try {
          const first = mkdirSync(dirname(path), { recursive: true });
          if (first !== undefined) created.push(...ancestorsFrom(first, dirname(path)));
        } catch {
          break; // nothing can be written there: opening the output fails, saying why
        }
        lock = await acquireLockFile(path, {
          what: 'assay tag',
          label: `the lock of ${output}`,
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.log ? { log: opts.log } : {}),
          cancelled,
          busy: (holder, first) => {
            if (first) opts.log?.(`${output}: waiting for ${describeHolder(holder)}, which is writing this file`);
          },
        });
      }
      if (lock !== 'unavailable') held.push(lock);
    }
  } catch (e) {
    releaseAll();
    throw e;
  }
  return releaseAll;
}
