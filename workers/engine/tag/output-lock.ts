// One writer at a time per attribute file: a second run tagging the same documents file (the app beside a terminal, two terminals) waits for the first.
import { basename, dirname, join } from 'node:path';
import { AssayError } from '../errors.js';
import { acquireLockFile, describeHolder } from '../io/lock-file.js';
import { lockSet } from '../io/output-lock.js';

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
  // The marker folder stays: the run's parent writes this file's marker there next, and a pool's other tasks lock
  // their files in it meanwhile (removing it while empty raced their mkdir: ENOENT).
  const set = lockSet({ tidy: false });
  try {
    for (const output of [...new Set(outputs)].sort()) {
      if (opts.signal?.aborted) throw cancelled();
      const path = tagLockPath(output);
      if (!set.makeDir(dirname(path))) continue; // nothing can be written there: opening the output fails, saying why
      set.add(
        await acquireLockFile(path, {
          what: 'assay tag',
          label: `the lock of ${output}`,
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.log ? { log: opts.log } : {}),
          cancelled,
          busy: (holder, first) => {
            if (first) opts.log?.(`${output}: waiting for ${describeHolder(holder)}, which is writing this file`);
          },
        }),
      );
    }
  } catch (e) {
    set.releaseAll();
    throw e;
  }
  return set.releaseAll;
}
