// The `assay` CLI as one CommonJS file (dist/engine/cli.cjs) that bin/assay.js runs through V8's code cache (bin/code-cache.js).
// Why a second bundle: Node 20 can cache compiled code only for scripts (vm.Script), not ES modules, and a cold start
// spends most of its time compiling and first-running our code. The ES module bundles stay for workers, the host and serve.
import { createHash } from 'node:crypto';
import { build } from 'esbuild';

/** First line of cli.cjs: a digest of the rest, which names its code caches (V8 itself checks only the source's length). */
export const DIGEST_PREFIX = '// assay-cli ';

/** Bundles workers/engine/bin.ts to `<out>/cli.cjs` (+ .map); returns the files for the caller to write. */
export async function buildCachedCli({ root, out, external, plugins }) {
  const result = await build({
    write: false,
    absWorkingDir: root,
    entryPoints: { cli: 'workers/engine/bin.ts' },
    outExtension: { '.js': '.cjs' },
    outdir: out,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: 'linked',
    // Without comments and indentation the file is 1.5 MB instead of 2: less to read and for V8 to scan at every start
    // (≈ 14 ms of `tag -c fineweb.yaml`). Names stay; the source map gives lines back.
    minifyWhitespace: true,
    external,
    plugins,
    logLevel: 'warning',
    // The engine resolves workers, models and data against import.meta.url: here it is this file's URL, in the
    // same folder as the ES module bundles, so every such path resolves as it does there.
    define: { 'import.meta.url': '__assayCliUrl' },
    // "use strict" first: esbuild's own comes after the banner, where it is no longer a directive.
    banner: { js: '"use strict";\nconst __assayCliUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const code = result.outputFiles.find((f) => f.path.endsWith('.cjs'));
  const map = result.outputFiles.find((f) => f.path.endsWith('.cjs.map'));
  if (code === undefined || map === undefined) throw new Error('build-cli-cached: esbuild wrote no cli.cjs');
  const digest = createHash('sha256').update(code.contents).digest('hex').slice(0, 20);
  const mapJson = JSON.parse(map.text);
  // The digest line shifts every generated line down by one: an empty first line in the map's mappings.
  mapJson.mappings = `;${mapJson.mappings}`;
  return {
    digest,
    files: [
      { path: code.path, contents: Buffer.concat([Buffer.from(`${DIGEST_PREFIX}${digest}\n`), code.contents]) },
      { path: map.path, contents: Buffer.from(JSON.stringify(mapJson)) },
    ],
  };
}
