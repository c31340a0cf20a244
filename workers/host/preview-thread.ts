// The host's main-thread side of the preview worker: one call at a time, a newer preview cancels an older, a stuck worker is replaced.
import { Worker } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import type { ErrorPayload } from '../../shared/contract/index.js';
import { AssayError } from '../engine/errors.js';
import { HostError, type HostErrorCode } from './errors.js';
import { hostEntry, tsxApiUrl, type EntryPoint } from './launch-process.js';
import type { CallMessage, PreviewWorkerData, ReplyMessage, SamplePolicy, WireError } from './preview-protocol.js';

export interface PreviewThreadOptions {
  root: string;
  /** The environment recipes may read (the workspace's allow-list), asked before every call. */
  env: () => Record<string, string>;
  /** How long a cancelled call may take to notice before the worker is terminated and replaced (default 2 s). */
  graceMs?: number;
  /** Any call running longer is stopped the same way (default 10 min): nothing holds the engine forever. */
  maxCallMs?: number;
  log?: (message: string) => void;
  /** Test hook: see PreviewWorkerData.delayMs. */
  delayMs?: number;
  entry?: EntryPoint;
  /** See PreviewWorkerData.sample (the app: samplePolicy(process.env)). */
  sample?: SamplePolicy;
}

interface Task {
  id: number;
  method: string;
  args: unknown[];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

/** Only a preview supersedes a preview (a diff a diff, a ledger a ledger, a plan a plan): the renderer runs one per edit (or slider step) and wants the latest. */
const SUPERSEDES = new Set(['preview', 'diff', 'tokenLedger', 'plan']);

const cancelled = (method = 'preview'): AssayError => new AssayError('CANCELLED', `superseded by a newer ${method}`);

/** A worker's error as the host's own kind of error, so handlers and toErrorPayload see what the engine threw. */
function rebuild(w: WireError): Error {
  if (w.kind === 'host') return new HostError(w.code as HostErrorCode, w.message, w.field);
  if (w.kind === 'assay') {
    const prefix = w.file !== undefined ? (w.line !== undefined ? `${w.file}:${w.line}: ` : `${w.file}: `) : w.field !== undefined ? `${w.field}: ` : '';
    const e = new AssayError(w.code as AssayError['code'], w.message.startsWith(prefix) ? w.message.slice(prefix.length) : w.message, {
      ...(w.file !== undefined && { file: w.file }), ...(w.line !== undefined && { line: w.line }), ...(w.field !== undefined && { field: w.field }),
    });
    if (w.column !== undefined) Object.assign(e, { issues: [{ column: w.column }] });
    return e;
  }
  const e = new Error(w.message);
  if (w.stack !== undefined) e.stack = w.stack;
  return e;
}

export class PreviewThread {
  readonly #queue: Task[] = [];
  #worker: Worker | null = null;
  #flag = new Int32Array(new SharedArrayBuffer(4));
  #running: { task: Task; gen: number; timer: NodeJS.Timeout; grace: NodeJS.Timeout | null } | null = null;
  #nextId = 1;
  #sentEnv = '';
  #closed: ErrorPayload | null = null;
  /** Workers started so far (tests read it to see a replacement). */
  started = 0;

  constructor(private readonly opts: PreviewThreadOptions) {}

  call(method: string, args: unknown[]): Promise<unknown> {
    if (this.#closed) return Promise.reject(new HostError('INTERNAL', this.#closed.message));
    return new Promise((resolve, reject) => {
      if (SUPERSEDES.has(method)) this.#supersede(method);
      this.#queue.push({ id: this.#nextId++, method, args, resolve, reject });
      this.#pump();
    });
  }

  /** Waiting calls of `method` answer CANCELLED now; a running one is asked to stop, and replaced if it does not. */
  #supersede(method: string): void {
    for (let i = this.#queue.length - 1; i >= 0; i--) {
      const t = this.#queue[i] as Task;
      if (t.method !== method) continue;
      this.#queue.splice(i, 1);
      t.reject(cancelled(method));
    }
    const r = this.#running;
    if (r === null || r.task.method !== method || r.grace !== null) return;
    Atomics.add(this.#flag, 0, 1);
    r.grace = setTimeout(() => this.#replace(`a superseded ${method} did not stop within ${this.opts.graceMs ?? 2000} ms`, cancelled(method)), this.opts.graceMs ?? 2000);
  }

  #pump(): void {
    if (this.#running !== null || this.#closed) return;
    const task = this.#queue.shift();
    if (task === undefined) return;
    const worker = this.#ensureWorker();
    const gen = Atomics.load(this.#flag, 0);
    const envNow = this.opts.env();
    const envKey = JSON.stringify(envNow);
    const msg: CallMessage = { type: 'call', id: task.id, method: task.method, args: task.args, gen, ...(envKey !== this.#sentEnv && { env: envNow }) };
    try {
      worker.postMessage(msg);
    } catch (e) {
      task.reject(new HostError('BAD_REQUEST', `${task.method}: the request cannot be passed to the preview worker (${(e as Error).message})`));
      return this.#pump();
    }
    this.#sentEnv = envKey;
    const limit = this.opts.maxCallMs ?? 600_000;
    const timer = setTimeout(() => this.#replace(`${task.method} ran for more than ${limit / 1000} s`, new HostError('INTERNAL', `${task.method} took longer than ${limit / 1000} s and was stopped`)), limit);
    this.#running = { task, gen, timer, grace: null };
  }

  #ensureWorker(): Worker {
    if (this.#worker) return this.#worker;
    const entry = this.opts.entry ?? hostEntry('preview-worker', 'preview-worker.ts');
    // A fresh flag per worker: a terminated worker can never see (or miss) a later bump.
    this.#flag = new Int32Array(new SharedArrayBuffer(4));
    const data: PreviewWorkerData = { root: this.opts.root, flag: this.#flag.buffer as SharedArrayBuffer, ...(this.opts.delayMs !== undefined && { delayMs: this.opts.delayMs }), ...(this.opts.sample && { sample: this.opts.sample }) };
    const env = this.opts.env();
    // From sources the worker is TypeScript: worker_threads ignore `--import tsx` on Node 20, so register tsx inside it first.
    const worker =
      entry.execArgv.length > 0
        ? new Worker(`const { workerData } = require('node:worker_threads'); import(workerData.tsxApi).then((api) => { api.register(); return import(workerData.entry); });`, {
            eval: true, env, execArgv: [], workerData: { ...data, tsxApi: tsxApiUrl(), entry: pathToFileURL(entry.modulePath).href },
          })
        : new Worker(entry.modulePath, { env, execArgv: [], workerData: data });
    this.#sentEnv = JSON.stringify(env);
    this.started++;
    worker.on('message', (m: ReplyMessage) => worker === this.#worker && this.#onReply(m));
    worker.on('error', (e) => worker === this.#worker && this.#lost(`the preview worker failed: ${e.message}`));
    worker.on('exit', (code) => worker === this.#worker && this.#lost(`the preview worker stopped (exit code ${code})`));
    this.#worker = worker;
    return worker;
  }

  #onReply(m: ReplyMessage): void {
    const r = this.#running;
    if (r === null || r.task.id !== m.id) return;
    this.#settle();
    if (m.ok) r.task.resolve(m.value);
    else r.task.reject(rebuild(m.error));
    this.#pump();
  }

  #settle(): void {
    const r = this.#running;
    if (r === null) return;
    clearTimeout(r.timer);
    if (r.grace) clearTimeout(r.grace);
    this.#running = null;
  }

  /** The running call could not be stopped politely: terminate the worker (its caches go with it) and go on with a fresh one. */
  #replace(why: string, error: Error): void {
    const r = this.#running;
    this.opts.log?.(`${why}: terminating the preview worker and starting a fresh one (its caches are lost; the next preview is a cold one)`);
    this.#dropWorker();
    this.#settle();
    r?.task.reject(error);
    this.#pump();
  }

  /** The worker died by itself (an uncaught error, out of memory): the call it ran fails, the next call starts another. */
  #lost(why: string): void {
    this.opts.log?.(why);
    const r = this.#running;
    this.#dropWorker();
    this.#settle();
    r?.task.reject(new HostError('INTERNAL', `${r.task.method}: ${why}`));
    this.#pump();
  }

  #dropWorker(): void {
    const w = this.#worker;
    this.#worker = null;
    if (w) void w.terminate();
  }

  async close(): Promise<void> {
    this.#closed = { code: 'INTERNAL', message: 'the index is closed' };
    for (const t of this.#queue.splice(0)) t.reject(new HostError('INTERNAL', this.#closed.message));
    const r = this.#running;
    this.#settle();
    r?.task.reject(new HostError('INTERNAL', this.#closed.message));
    const w = this.#worker;
    this.#worker = null;
    if (w) await w.terminate();
  }
}
