// Bundle the engine CLI, its child-process workers, the engine host and `assay serve` with esbuild (native and WASM packages stay external).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist/engine');
// Every test process rebuilds once and others may be running the bundles meanwhile: each file is
// replaced by a rename (never deleted first), so a reader sees the old bundle or the new one, never none.
const result = await build({
  write: false,
  absWorkingDir: root,
  entryPoints: {
    cli: 'workers/engine/bin.ts',
    'mix-worker': 'workers/engine/mix/worker.ts',
    'tag-worker': 'workers/engine/tag/worker.ts',
    'import-worker': 'workers/engine/parquet/worker.ts',
    'warc-worker': 'workers/engine/warc/worker.ts',
    'tokens-worker': 'workers/engine/tokenize/worker.ts',
    'jq-worker': 'workers/engine/mix/filters/jq/worker.ts',
    'index-worker': 'workers/engine/index/build/worker.ts',
    'search-worker': 'workers/engine/index/search/worker.ts',
    'count-worker': 'workers/engine/index/tokens/worker.ts',
    // The app side (issue 7): beside the engine bundles so the job runner finds the pool workers next to it.
    host: 'workers/host/main.ts',
    'preview-worker': 'workers/host/preview-worker.ts',
    'job-runner': 'workers/host/jobs/runner.ts',
    serve: 'main/serve-bin.ts',
  },
  outdir: 'dist/engine',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  packages: 'external',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __assayCreateRequire } from 'node:module'; const require = __assayCreateRequire(import.meta.url);" },
});
mkdirSync(out, { recursive: true });
const written = new Set();
for (const f of result.outputFiles) {
  const tmp = `${f.path}.${process.pid}.tmp`;
  writeFileSync(tmp, f.contents);
  renameSync(tmp, f.path);
  written.add(basename(f.path));
}
// Bundles of entries that no longer exist would be run by nobody but could mislead: remove them.
for (const name of readdirSync(out)) if (!written.has(name) && !name.endsWith('.tmp')) rmSync(join(out, name), { force: true });
