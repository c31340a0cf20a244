// Bundle the engine CLI, its child-process workers, the engine host and `assay serve` with esbuild (native and WASM packages stay external).
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/dist/engine`, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'workers/engine/bin.ts',
    'mix-worker': 'workers/engine/mix/worker.ts',
    'tag-worker': 'workers/engine/tag/worker.ts',
    'tokens-worker': 'workers/engine/tokenize/worker.ts',
    'jq-worker': 'workers/engine/mix/filters/jq/worker.ts',
    'index-worker': 'workers/engine/index/build/worker.ts',
    'search-worker': 'workers/engine/index/search/worker.ts',
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
