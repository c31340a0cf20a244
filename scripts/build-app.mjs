// Bundle the Electron main process (ESM) and its sandboxed preload (CommonJS, as sandboxed preloads must be) into out/.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
rmSync(`${root}/out`, { recursive: true, force: true });
const common = { absWorkingDir: root, bundle: true, platform: 'node', target: 'node20', sourcemap: 'linked', logLevel: 'warning', external: ['electron'] };
await build({
  ...common,
  entryPoints: { main: 'main/main.ts' },
  outdir: 'out',
  format: 'esm',
  packages: 'external',
  banner: { js: "import { createRequire as __assayCreateRequire } from 'node:module'; const require = __assayCreateRequire(import.meta.url);" },
});
await build({ ...common, entryPoints: { preload: 'main/preload.ts' }, outdir: 'out', format: 'cjs', outExtension: { '.js': '.cjs' } });
