// Process entry of the engine host: picks its transport (Electron utility process or forked child), serves the workspace until stopped.
import { takeEnvironment } from './app-env.js';
import { createHost } from './host.js';
import { processHostEndpoint } from './transport-process.js';
import { parentPortOf, utilityHostEndpoint } from './transport-utility.js';

const log = (m: string): void => void process.stderr.write(`assay host: ${m}\n`);

function workspaceArg(argv: readonly string[]): string {
  const i = argv.indexOf('--workspace');
  const dir = i >= 0 ? argv[i + 1] : undefined;
  if (!dir) throw new Error('usage: host --workspace DIR');
  return dir;
}

// An unexpected error leaves the host in an unknown state: exit, and let the supervisor restart a clean one.
process.on('uncaughtException', (e) => {
  log(`fatal: ${e.stack ?? e.message}`);
  process.exit(70);
});

// Read before the environment is narrowed to system variables (recipes see only the workspace's allowed names).
const restartReason = process.env.ASSAY_HOST_RESTART_REASON;
const env = takeEnvironment();
const port = parentPortOf();
const endpoint = port ? utilityHostEndpoint(port) : processHostEndpoint();
const host = createHost({
  workspace: workspaceArg(process.argv.slice(2)),
  endpoint,
  env,
  ...(restartReason !== undefined && { restartReason }),
  log,
});

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  // Running jobs are cancelled (their engine cleans up temporary outputs) before the host leaves. A job
  // that ignores its cancel is killed after the job manager's grace; this deadline only guards against
  // a close that hangs, and job processes still stop on their own once this process is gone (disconnect).
  setTimeout(() => {
    log('shutdown took too long; exiting');
    process.exit(1);
  }, 20_000).unref();
  void host.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// A forked host whose parent died has nobody to serve.
process.on('disconnect', stop);
