// Process entry of `assay serve` (bundled to dist/engine/serve.js; bin/assay.js routes the verb here).
import { serveMain } from './serve-cli.js';

const args = process.argv.slice(2);
serveMain(args[0] === 'serve' ? args.slice(1) : args).then(
  // Exit explicitly: the server is closed by now, and a lingering handle must not keep a stopped server alive.
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`assay serve: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
