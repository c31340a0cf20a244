// V8 flags for forked pool workers: when the pool's workers fill every core, V8's own background threads only take turns with them.
import { availableParallelism } from 'node:os';
import { AssayError } from '../errors.js';

/** Runs V8's compiler and garbage collector on the worker's own thread (no background compile, marking or sweeping). */
export const SINGLE_THREADED = '--single-threaded';

/**
 * Flags for the `workers` child processes of one pool. V8 compiles hot functions and marks garbage on background
 * threads, which pays off on an idle core; when the pool alone keeps every core busy those threads only preempt
 * the workers and add their hand-offs (a 10⁶-document index build reads ≈ 13 % faster without them, a 2-process
 * mix ≈ 4 %). `ASSAY_V8_BACKGROUND=on` keeps them, `off` turns them off whatever the core count.
 */
export function poolV8Flags(workers: number, env: NodeJS.ProcessEnv = process.env, cores: number = availableParallelism()): string[] {
  const v = env.ASSAY_V8_BACKGROUND;
  if (v === 'on') return [];
  if (v === 'off') return [SINGLE_THREADED];
  if (v !== undefined && v !== '') throw new AssayError('CONFIG', `must be 'on' or 'off', not '${v}'`, { field: 'ASSAY_V8_BACKGROUND' });
  return workers >= cores ? [SINGLE_THREADED] : [];
}
