// The repository (or packaged app) root: the nearest folder above a module that holds a package.json.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Works from sources (main/), from bundles (dist/engine/, out/) and inside a packaged app.asar. */
export function appRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return resolve(from, '..');
  }
}
