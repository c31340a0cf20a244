// The `assay` CLI, the pools' worker processes and the app's job process as CommonJS files (dist/engine/<name>.cjs), run through V8's code cache.
// Why a second set of bundles: Node 20 can cache compiled code only for scripts (vm.Script), not ES modules, and a
// cold start spends most of its time compiling and first-running our code (workers/engine/code-cache/ runs them).
// The ES module bundles stay for worker threads, Electron's utility processes, the host and serve.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';

/** First line of each .cjs: a digest of the rest, which names its code caches (V8 itself checks only the source's length). */
export const DIGEST_PREFIX = '// assay-bundle ';

/**
 * Entries run through the cache: the CLI (bin/assay.js), every worker a pool forks as a process
 * (workers/engine/jobs/entry.ts) and the app's job runner where the host forks it (workers/host/jobs/launch.ts).
 * jq's worker is always a thread.
 */
export const CACHED_ENTRIES = {
  cli: 'workers/engine/bin.ts',
  'mix-worker': 'workers/engine/mix/worker.ts',
  'tag-worker': 'workers/engine/tag/worker.ts',
  'import-worker': 'workers/engine/parquet/worker.ts',
  'warc-worker': 'workers/engine/warc/worker.ts',
  'tokens-worker': 'workers/engine/tokenize/worker.ts',
  'index-worker': 'workers/engine/index/build/worker.ts',
  'search-worker': 'workers/engine/index/search/worker.ts',
  'count-worker': 'workers/engine/index/tokens/worker.ts',
  'job-runner': 'workers/host/jobs/runner.ts',
};

/** Bundles CACHED_ENTRIES to `<out>/<name>.cjs` (+ .map); returns the files for the caller to write and their digests. */
export async function buildCachedBundles({ root, out, external, plugins }) {
  const result = await build({
    write: false,
    absWorkingDir: root,
    entryPoints: CACHED_ENTRIES,
    outExtension: { '.js': '.cjs' },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    // Without comments and indentation the CLI is 1.5 MB instead of 2: less to read and for V8 to scan at every
    // start (≈ 14 ms of `tag -c fineweb.yaml`). Names stay; the source maps give lines back.
    minifyWhitespace: true,
    external,
    plugins,
    logLevel: 'warning',
    // The engine resolves workers, models and data against import.meta.url: here it is the bundle's own URL, in the
    // same folder as the ES module bundles, so every such path resolves as it does there.
    define: { 'import.meta.url': '__assayCliUrl' },
    // "use strict" first: esbuild's own comes after the banner, where it is no longer a directive.
    banner: { js: '"use strict";\nconst __assayCliUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const files = [];
  const digests = [];
  for (const code of result.outputFiles.filter((f) => f.path.endsWith('.cjs'))) {
    const map = result.outputFiles.find((f) => f.path === `${code.path}.map`);
    if (map === undefined) throw new Error(`build-cached: esbuild wrote no map for ${code.path}`);
    const digest = createHash('sha256').update(code.contents).digest('hex').slice(0, 20);
    const mapJson = JSON.parse(map.text);
    // The digest line shifts every generated line down by one: an empty first line in the map's mappings.
    mapJson.mappings = `;${mapJson.mappings}`;
    files.push({ path: code.path, contents: Buffer.concat([Buffer.from(`${DIGEST_PREFIX}${digest}\n`), code.contents]) });
    files.push({ path: map.path, contents: Buffer.from(JSON.stringify(mapJson)) });
    digests.push(digest);
  }
  if (digests.length !== Object.keys(CACHED_ENTRIES).length) throw new Error('build-cached: esbuild did not write every .cjs');
  return { files, digests };
}
