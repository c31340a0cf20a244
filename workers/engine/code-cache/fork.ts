// How a forked Node process starts a built entry from V8's code cache: the loader (child.ts) with the entry's CommonJS bundle.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** Fork `loader` with `bundle` as its first argument. */
export interface CachedFork {
  loader: string;
  bundle: string;
}

/**
 * For the built entry `<dir>/<name>.js`: its cached fork, or undefined where the loader or the bundle is not built,
 * or ASSAY_CODE_CACHE=0 asks for the ES modules.
 */
export function cachedFork(dir: string, name: string): CachedFork | undefined {
  if (process.env.ASSAY_CODE_CACHE === '0') return undefined;
  const loader = resolve(dir, 'cached-child.js');
  const bundle = resolve(dir, `${name}.cjs`);
  return existsSync(loader) && existsSync(bundle) ? { loader, bundle } : undefined;
}

/** What fork() runs for an entry: the cached fork where there is one, else the module itself. */
export const forkTarget = (entry: { modulePath: string; cached?: CachedFork }): [string, string[]] =>
  entry.cached ? [entry.cached.loader, [entry.cached.bundle]] : [entry.modulePath, []];
