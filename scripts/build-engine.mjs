// Bundle the engine CLI, its child-process workers, the engine host and `assay serve` with esbuild (native and WASM packages stay external).
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCachedBundles, CACHED_ENTRIES } from './build-cached.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// Packages stay external (native, WASM, data files) except small pure-JS ones every command needs: bundled,
// esbuild keeps only what is used — zod alone loads 95 modules (all its locales) from node_modules.
const BUNDLED = new Set(['zod', 'yaml']);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
  .filter((name) => !BUNDLED.has(name))
  .flatMap((name) => [name, `${name}/*`]);
const out = join(root, 'dist/engine');
// `import { z } from 'zod'` makes esbuild keep all of zod (755 KB, every locale): `z` is a re-exported namespace it
// cannot shake. The same import written `import * as z` is shaken to the members used (≈ 150 KB, ≈ 18 ms less per command).
const zodNamespace = {
  name: 'zod-namespace',
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes('node_modules')) return undefined;
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes("import { z } from 'zod';")) return undefined;
      return { contents: text.replaceAll("import { z } from 'zod';", "import * as z from 'zod';"), loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};
// Every test process rebuilds once and others may be running the bundles meanwhile: each file is
// replaced by a rename (never deleted first), so a reader sees the old bundle or the new one, never none.
const cachedBuild = buildCachedBundles({ root, out, external, plugins: [zodNamespace] });
const result = await build({
  write: false,
  absWorkingDir: root,
  entryPoints: {
    // The CLI and the pool workers are ES modules too: worker threads, the host's jobs and serve load them.
    ...CACHED_ENTRIES,
    'jq-worker': 'workers/engine/mix/filters/jq/worker.ts',
    // The app side (issue 7): beside the engine bundles so the job runner finds the pool workers next to it.
    host: 'workers/host/main.ts',
    'preview-worker': 'workers/host/preview-worker.ts',
    serve: 'main/serve-bin.ts',
    // bin/assay.js runs cli.cjs through this; pools and the host's job launcher fork .cjs bundles through cached-child.
    'code-cache': 'workers/engine/code-cache/run-cached.ts',
    'cached-child': 'workers/engine/code-cache/child.ts',
  },
  outdir: 'dist/engine',
  bundle: true,
  platform: 'node',
  format: 'esm',
  // Shared code goes to chunk-<hash>.js files beside the entries, so a lazy `import()` (a CLI verb, a tagger)
  // really defers parsing that code and loading its packages: without splitting, esbuild hoists every
  // package import of the bundle to its top and `assay --help` would load them all.
  splitting: true,
  chunkNames: 'chunk-[name]-[hash]',
  target: 'node20',
  sourcemap: 'linked',
  external,
  plugins: [zodNamespace],
  logLevel: 'warning',
  banner: { js: "import { createRequire as __assayCreateRequire } from 'node:module'; const require = __assayCreateRequire(import.meta.url);" },
});
const cached = await cachedBuild;
mkdirSync(out, { recursive: true });
const written = new Set();
// Chunks before entries: a process starting an entry that was just replaced finds every chunk it imports.
const isChunk = (path) => basename(path).startsWith('chunk-');
const ordered = [...result.outputFiles, ...cached.files].sort((a, b) => Number(isChunk(b.path)) - Number(isChunk(a.path)));
for (const f of ordered) {
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
  written.add(basename(f.path));
}
// Bundles of entries that no longer exist would be run by nobody but could mislead: remove them. Chunks of an
// earlier build stay ten minutes: a CLI started from the old entry imports its verb's chunks as it starts (the
// only later import, jq's disposal, tolerates a missing chunk), and test runs rebuild often enough to pile up.
const CHUNK_GRACE_MS = 600_000;
for (const name of readdirSync(out)) {
  if (written.has(name) || name.endsWith('.tmp')) continue;
  if (isChunk(name) && Date.now() - statSync(join(out, name)).mtimeMs < CHUNK_GRACE_MS) continue;
  rmSync(join(out, name), { force: true });
}
// Code caches of earlier .cjs bundles are never read again (their name holds its digest): the same grace, then removed.
const caches = join(root, 'dist/code-cache');
for (const name of existsSync(caches) ? readdirSync(caches) : []) {
  if (cached.digests.some((d) => name.includes(d)) || Date.now() - statSync(join(caches, name)).mtimeMs < CHUNK_GRACE_MS) continue;
  rmSync(join(caches, name), { force: true });
}
