// A backtracking JS RegExp under a hard per-document time budget: it runs in a worker thread that is terminated when the budget runs out.
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';

/*
 * Why a thread: V8's own linear engine (`--enable-experimental-regexp-engine`, Node 20) refuses
 * the `u` and `i` flags and every lookaround, i.e. everything a pattern that needs backtracking
 * uses, and a backtracking regex cannot be interrupted from the thread running it. The caller
 * blocks on Atomics (the tagger interface is synchronous) while the worker searches; when the
 * budget runs out the worker is terminated (V8 stops a running regex within milliseconds) and a
 * fresh one serves the next call. The worker is plain JS evaluated from this string, so it needs
 * no bundle entry of its own.
 */
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { port, flag: buffer, source, flags } = workerData;
const flag = new Int32Array(buffer);
const reply = (m) => { port.postMessage(m); Atomics.store(flag, 0, 1); Atomics.notify(flag, 0); };
let re = null;
try { re = new RegExp(source, flags); } catch (e) { reply({ id: 0, error: String(e && e.message) }); }
if (re !== null) {
  port.on('message', ({ id, text }) => {
    try { reply({ id, hit: re.test(text) }); } catch (e) { reply({ id, error: String(e && e.message) }); }
  });
  reply({ id: 0, ready: true });
}
`;

type Reply = { id: number; ready?: true; hit?: boolean; error?: string };
/** Starting a thread is not the pattern's cost: a loaded machine may take seconds. */
const STARTUP_TIMEOUT_MS = 30_000;
const WAIT_SLICE_MS = 50;

export type BudgetResult = { kind: 'ok'; hit: boolean } | { kind: 'timeout' } | { kind: 'error'; message: string };

export class BudgetedRegExp {
  private worker: Worker | null = null;
  private port: MessagePort | null = null;
  private flag = new Int32Array(new SharedArrayBuffer(4));
  private nextId = 1;

  constructor(
    private readonly source: string,
    private readonly flags: string,
  ) {}

  /** `regex.test(text)`, or a timeout after `budgetMs` of the search itself. */
  test(text: string, budgetMs: number): BudgetResult {
    const port = this.ensureWorker();
    const id = this.nextId++;
    Atomics.store(this.flag, 0, 0);
    port.postMessage({ id, text });
    const reply = this.waitFor(port, id, budgetMs);
    if (reply === null) {
      this.close();
      return { kind: 'timeout' };
    }
    if (reply.error !== undefined) return { kind: 'error', message: reply.error };
    return { kind: 'ok', hit: reply.hit === true };
  }

  /** Stop the worker (if any); the next `test` starts a fresh one. */
  close(): void {
    if (this.worker) void this.worker.terminate();
    this.port?.close();
    this.worker = null;
    this.port = null;
  }

  /** Whether a worker thread is running (for tests). */
  get alive(): boolean {
    return this.worker !== null;
  }

  private ensureWorker(): MessagePort {
    if (this.port) return this.port;
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    // A fresh flag per worker, so a worker terminated mid-reply can never wake a later wait.
    this.flag = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      execArgv: [],
      workerData: { port: port2, flag: this.flag.buffer, source: this.source, flags: this.flags },
      transferList: [port2],
    });
    // Never keep the process alive, and never crash it: a dead worker shows as a timeout.
    worker.unref();
    worker.on('error', () => undefined);
    this.worker = worker;
    this.port = port1;
    const ready = this.waitFor(port1, 0, STARTUP_TIMEOUT_MS);
    if (ready?.ready !== true) {
      this.close();
      throw new Error(ready?.error ?? 'the regex worker thread did not start in time');
    }
    return port1;
  }

  /** Block until the reply with `id` arrives (stale replies are skipped), or time out. */
  private waitFor(port: MessagePort, id: number, timeoutMs: number): Reply | null {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) {
        const reply = m.message as Reply;
        if (reply.id === id) return reply;
      }
      const left = deadline - performance.now();
      if (left <= 0) return null;
      // The worker queues its reply before it sets the flag, so after a wake-up the loop reads it.
      if (Atomics.wait(this.flag, 0, 0, Math.min(left, WAIT_SLICE_MS)) !== 'timed-out') Atomics.store(this.flag, 0, 0);
    }
  }
}
