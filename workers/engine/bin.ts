// Process entry of the `assay` CLI (bundled to dist/engine/cli.js; `tsx workers/engine/bin.ts` from sources).
import { main } from './cli.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`assay: internal error: ${String(e)}\n`);
    process.exitCode = 1;
  },
);
