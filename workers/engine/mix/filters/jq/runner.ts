// Runs jq synchronously from the caller's point of view: a worker thread does the work, the caller blocks on Atomics.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { workerEntry } from '../../../jobs/entry.js';
import { FLAG_INDEX, type JqReply, type JqRequest, type JqWorkerData } from './protocol.js';

export type RunResult =
  | { kind: 'ok'; stdout: string }
  | { kind: 'jq-error'; exitCode: number; stderr: string }
  | { kind: 'timeout' }
  | { kind: 'fatal'; message: string };

/** Loading the WASM module can take a while on a busy machine; it is not the program's time budget. */
const STARTUP_TIMEOUT_MS = 30_000;
const DEFAULT_MEMORY_CAP = 1024 * 1024 * 1024;
const WAIT_SLICE_MS = 100;

/**
 * In sources (tests, tsx) the worker is TypeScript: a bootstrap file registers tsx in the worker
 * before importing it, because worker_threads ignore `--import` in execArgv on Node 20. If that
 * fails the bootstrap reports it like a worker would, so the caller never waits for nothing.
 */
const TS_BOOTSTRAP = fileURLToPath(new URL('./ts-bootstrap.cjs', import.meta.url));

/** One jq worker, respawned on demand after a timeout, a fatal error or `dispose()`. */
export class JqRunner {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;

  constructor(private readonly memoryCapBytes = DEFAULT_MEMORY_CAP) {}

  /** Run `jq -c program` over `input`, waiting at most `timeoutMs` for the answer. */
  run(program: string, input: string, timeoutMs: number): RunResult {
    const { worker, port } = this.ensureWorker();
    const id = this.nextId++;
    Atomics.store(this.flag, FLAG_INDEX, 0);
    const req: JqRequest = { id, program, input };
    worker.postMessage(req);
    const reply = this.waitFor(port, id, timeoutMs);
    if (reply === null) {
      this.dispose();
      return { kind: 'timeout' };
    }
    if (reply.type === 'fatal') {
      this.dispose();
      return { kind: 'fatal', message: reply.message };
    }
    if (reply.type === 'jq-error') return { kind: 'jq-error', exitCode: reply.exitCode, stderr: reply.stderr };
    if (reply.type === 'ok') return { kind: 'ok', stdout: reply.stdout };
    return { kind: 'fatal', message: `unexpected reply ${reply.type}` };
  }

  /** Terminate the worker (if any); the next `run` starts a fresh one. */
  dispose(): void {
    if (this.worker) void this.worker.terminate();
    this.port?.close();
    this.worker = null;
    this.port = null;
  }

  /** Whether a worker is currently alive (for tests and diagnostics). */
  get alive(): boolean {
    return this.worker !== null;
  }

  private ensureWorker(): { worker: Worker; port: MessagePort } {
    if (this.worker && this.port) return { worker: this.worker, port: this.port };
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    // A fresh flag per worker, so a worker terminated mid-reply can never wake a later wait.
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    const data: JqWorkerData = { flag: this.flag.buffer as SharedArrayBuffer, port: port2, memoryCapBytes: this.memoryCapBytes };
    const entry = workerEntry('jq-worker', 'mix/filters/jq/worker.ts');
    // `execArgv: []`: inheriting e.g. `--input-type=module` from `node -e` would break the bootstrap.
    const worker =
      entry.execArgv.length > 0
        ? new Worker(TS_BOOTSTRAP, {
            execArgv: [],
            workerData: { ...data, entry: pathToFileURL(entry.modulePath).href, tsxApi: tsxApiUrl() },
            transferList: [port2],
          })
        : new Worker(entry.modulePath, { execArgv: [], workerData: data, transferList: [port2] });
    // Never keep the process alive, and never crash it: failures surface as replies or timeouts.
    worker.unref();
    worker.on('error', () => undefined);
    this.worker = worker;
    this.port = port1;
    const ready = this.waitFor(port1, 0, STARTUP_TIMEOUT_MS);
    if (ready?.type !== 'ready') {
      this.dispose();
      throw new Error(ready?.type === 'fatal' ? ready.message : 'the jq worker did not start in time');
    }
    return { worker, port: port1 };
  }

  /** Block until the reply with `id` arrives (stale replies of earlier requests are skipped), or time out. */
  private waitFor(port: MessagePort, id: number, timeoutMs: number): JqReply | null {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const reply = m.message as JqReply;
        if (reply.id === id || reply.type === 'fatal') return reply;
      }
      const left = deadline - performance.now();
      if (left <= 0) return null;
      // The worker queues its reply before it sets the flag, so after a wake-up the loop reads it;
      // short slices make a missed wake-up cost at most one slice instead of the whole budget.
      if (Atomics.wait(this.flag, FLAG_INDEX, 0, Math.min(left, WAIT_SLICE_MS)) !== 'timed-out') Atomics.store(this.flag, FLAG_INDEX, 0);
    }
  }
}

/**
 * tsx's ESM registration API, whose `register()` installs the TypeScript hooks in the calling thread.
 * Looked up through tsx's export map: `require.resolve` would give the CommonJS build, which cannot
 * find its own files when imported from a worker, and `--import tsx` registers on the main thread only.
 */
function tsxApiUrl(): string {
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const rel = pkg.exports['./esm/api']?.import.default;
  if (rel === undefined) throw new Error('tsx has no ./esm/api export');
  return pathToFileURL(resolve(dirname(pkgPath), rel)).href;
}
