#!/usr/bin/env node
// `npx assay`: runs the bundled engine CLI, or browser mode for `assay serve` (built by `npm ci` → prepare, or `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// `serve` lives in its own bundle: it carries the host and server, which the engine layer must not import.
const verb = process.argv[2];
const name = verb === 'serve' ? 'serve' : 'cli';
const bundle = fileURLToPath(new URL(`../dist/engine/${name}.js`, import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('assay: the engine is not built yet; run `npm run build` in the repository\n');
  process.exit(1);
}
await import(bundle);
