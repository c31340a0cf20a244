// One pool worker behind one interface, a forked Node process or a worker thread, so runPool drives both the same way.
import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { forkTarget } from '../code-cache/fork.js';
import { AssayError } from '../errors.js';
import type { WorkerEntry } from './entry.js';

/** How a pool runs its workers: child processes (the CLI's default) or worker threads (where Node cannot be forked). */
export type PoolTransport = 'processes' | 'threads';

/**
 * Threads where forking would not start Node: inside Electron (`execPath` is the app, and with the
 * RunAsNode fuse off no variable makes it run as Node, so a fork would open the app again), or when
 * `ASSAY_POOL=threads` asks for them.
 */
export function poolTransport(env: NodeJS.ProcessEnv = process.env, versions: NodeJS.ProcessVersions = process.versions): PoolTransport {
  if (versions.electron !== undefined) return 'threads';
  const v = env.ASSAY_POOL;
  if (v === undefined || v === '') return 'processes';
  if (v === 'threads' || v === 'processes') return v;
  throw new AssayError('CONFIG', `must be 'threads' or 'processes', not '${v}'`, { field: 'ASSAY_POOL' });
}

export interface PoolChild {
  send(message: unknown): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Once, when the worker is gone: `clean` only when it went because it was told to (end/stop) and did not fail doing so. */
  onExit(listener: (clean: boolean, reason: string) => void): void;
  /** The worker could not start or crashed with an exception the parent can see. */
  onError(listener: (e: Error) => void): void;
  /** No more tasks: let it go (its outcome is already reported). */
  end(): void;
  /** Stop it now (cancel, or another worker failed). */
  stop(): void;
  /** Resolves when it is gone; forces it if it has not gone within `ms`. */
  exited(ms?: number): Promise<void>;
}

/** `v8Flags` go to a child process's command line (V8 takes them only at start; threads share their process's). */
export function spawnPoolChild(entry: WorkerEntry, transport: PoolTransport, v8Flags: readonly string[] = []): PoolChild {
  return transport === 'threads' ? threadChild(entry) : processChild(entry, v8Flags);
}

function processChild(entry: WorkerEntry, v8Flags: readonly string[]): PoolChild {
  const [modulePath, args] = forkTarget(entry);
  const child = fork(modulePath, args, { execArgv: [...v8Flags, ...entry.execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const gone = (): boolean => child.exitCode !== null || child.signalCode !== null;
  let told = false;
  return {
    send: (m) => void (child.connected && child.send(m as object)),
    onMessage: (l) => void child.on('message', l),
    onExit: (l) => void child.once('exit', (code, sig) => l(told && code === 0, `worker process exited unexpectedly (${sig ?? `code ${code}`})`)),
    onError: (l) => void child.on('error', (e) => l(new Error(`worker process failed: ${e.message}`))),
    // The worker exits by itself on disconnect (serveWorker).
    end: () => {
      told = true;
      if (child.connected) child.disconnect();
    },
    stop: () => {
      told = true;
      if (!gone()) child.kill('SIGTERM');
    },
    exited: (ms = 5000) =>
      gone()
        ? Promise.resolve()
        : new Promise((done) => {
            const timer = setTimeout(() => child.kill('SIGKILL'), ms);
            child.once('exit', () => {
              clearTimeout(timer);
              done();
            });
          }),
  };
}

/**
 * From sources the worker is TypeScript: worker_threads ignore `--import tsx` on Node 20, so the thread
 * registers tsx's ESM hooks itself before importing the worker; a failure there is reported as a failed
 * setup (task -1), as the worker would report its own.
 */
const TS_BOOTSTRAP = `const { parentPort, workerData } = require('node:worker_threads');
import(workerData.tsxApi).then((api) => { api.register(); return import(workerData.entry); })
  .catch((e) => parentPort.postMessage({ type: 'error', id: -1, error: { message: 'cannot start the pool worker: ' + String(e && e.stack || e) } }));`;

function threadChild(entry: WorkerEntry): PoolChild {
  const fromSources = entry.modulePath.endsWith('.ts');
  // `execArgv: []`: a parent's `--input-type=module` (node -e) or `--import tsx` would break the thread.
  const worker = fromSources
    ? new Worker(TS_BOOTSTRAP, { eval: true, execArgv: [], workerData: { tsxApi: tsxApiUrl(), entry: pathToFileURL(entry.modulePath).href } })
    : new Worker(entry.modulePath, { execArgv: [] });
  let running = true;
  let told = false;
  const exit = new Promise<void>((done) => worker.once('exit', () => ((running = false), done())));
  const stop = (): void => {
    told = true;
    if (running) void worker.terminate();
  };
  return {
    send: (m) => void (running && worker.postMessage(m)),
    onMessage: (l) => void worker.on('message', l),
    // A terminated thread exits with code 1: that is expected when this side ended or stopped it.
    onExit: (l) => void worker.once('exit', (code) => l(told, `worker thread exited unexpectedly (code ${code})`)),
    onError: (l) => void worker.on('error', (e) => l(new Error(`worker thread failed: ${e.message}`))),
    // Its last result is sent; a thread has nothing to flush that the job still needs, so it is ended here.
    end: stop,
    stop,
    exited: () => exit,
  };
}

/** tsx's ESM registration API, looked up through its export map (the CommonJS build cannot load from a worker). */
function tsxApiUrl(): string {
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  const rel = pkg.exports['./esm/api']?.import?.default;
  if (rel === undefined) throw new Error('tsx has no ./esm/api export');
  return pathToFileURL(resolve(dirname(pkgPath), rel)).href;
}
