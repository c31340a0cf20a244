#!/usr/bin/env node
// `npx assay`: runs the bundled engine CLI through V8's code cache (workers/engine/code-cache/), or browser mode for `assay serve` (built by `npm ci` → prepare, or `npm run build`).
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const verb = process.argv[2];
// `serve` lives in its own bundle: it carries the host and server, which the engine layer must not import. The
// usage text needs none of the engine: the ES module entry loads only its own small chunk, faster than any cache.
// ASSAY_CODE_CACHE=0 runs the ES modules too, where `node --enable-source-maps` maps stack traces to the sources (it
// does not map a vm.Script's).
const usage = verb === undefined || verb === '--help' || verb === '-h' || verb === 'help';
const esm = verb === 'serve' ? 'serve.js' : usage || process.env.ASSAY_CODE_CACHE === '0' ? 'cli.js' : null;
const bundle = fileURLToPath(new URL(`../dist/engine/${esm ?? 'cli.cjs'}`, import.meta.url));
if (!existsSync(bundle)) {
  process.stderr.write('assay: the engine is not built yet; run `npm run build` in the repository\n');
  process.exit(1);
}
if (esm !== null) await import(bundle);
// One cache per verb: each holds the code its verb ran (`tag` compiles the taggers, `mix` the mixer).
else {
  const { cacheDirFor, runCached } = await import('../dist/engine/code-cache.js');
  runCached(bundle, cacheDirFor(dirname(bundle)), /^[a-z][a-z0-9-]{0,30}$/.test(verb ?? '') ? verb : 'other');
}
