#!/usr/bin/env node
// `npx assay`: runs the bundled engine CLI (built by `npm ci` → prepare, or `npm run build`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bundle = fileURLToPath(new URL('../dist/engine/cli.js', import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('assay: the engine is not built yet; run `npm run build` in the repository\n');
  process.exit(1);
}
await import(bundle);
