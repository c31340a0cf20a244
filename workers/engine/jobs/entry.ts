// Locate a child-process entry both when running from TypeScript sources (tests, tsx) and from the built bundle.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cachedFork, type CachedFork } from '../code-cache/fork.js';

export interface WorkerEntry {
  modulePath: string;
  execArgv: string[];
  /** Built entries also come as a CommonJS bundle a forked process runs through V8's code cache; threads run `modulePath`. */
  cached?: CachedFork;
}

/** Entries are bundled as dist/engine/<name>.js next to cli.js; in sources they live at workers/engine/<src>. */
export function workerEntry(name: string, sourcePath: string): WorkerEntry {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    const engineRoot = resolve(dirname(here), '..');
    return { modulePath: resolve(engineRoot, sourcePath), execArgv: ['--import', 'tsx'] };
  }
  const bundled = resolve(dirname(here), `${name}.js`);
  if (!existsSync(bundled)) throw new Error(`worker bundle ${bundled} is missing; run \`npm run build\``);
  const cached = cachedFork(dirname(here), name);
  return { modulePath: bundled, execArgv: [], ...(cached && { cached }) };
}
