// A child-process pool: one process per core, each takes whole tasks (measured faster than worker_threads here).
import { fork, type ChildProcess } from 'node:child_process';
import { AssayError, type AssayErrorCode } from '../errors.js';
import type { WorkerEntry } from './entry.js';

/** Messages a pool worker sends back. */
export type WorkerMessage<R, P> =
  | { type: 'ready' }
  | { type: 'progress'; id: number; delta: P }
  | { type: 'log'; message: string }
  | { type: 'done'; id: number; result: R }
  | { type: 'error'; id: number; error: SerializedError };

/** Messages the pool sends to a worker. */
export type PoolMessage<I, T> = { type: 'init'; init: I } | { type: 'task'; id: number; task: T };

export interface SerializedError {
  message: string;
  code?: string;
  file?: string;
  line?: number;
  field?: string;
  stack?: string;
}

export function serializeError(e: unknown): SerializedError {
  if (e instanceof AssayError) return { message: e.message, code: e.code, file: e.file, line: e.line, field: e.field, stack: e.stack };
  if (e instanceof Error) return { message: e.message, stack: e.stack };
  return { message: String(e) };
}

/** Rebuild an error on the parent side; the message already carries its file:line prefix. */
export function deserializeError(s: SerializedError): AssayError {
  const err = new AssayError((s.code as AssayErrorCode | undefined) ?? 'INTERNAL', '', {});
  Object.assign(err, { message: s.message, file: s.file, line: s.line, field: s.field });
  return err;
}

export interface PoolOptions<I, R, P> {
  entry: WorkerEntry;
  processes: number;
  init: I;
  signal?: AbortSignal;
  onProgress?: (taskIndex: number, delta: P) => void;
  onDone?: (taskIndex: number, result: R) => void;
  onLog?: (message: string) => void;
}

/** Resolves when the child has exited; kills it if it has not within `ms`. */
function exited(child: ChildProcess, ms = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Runs every task; resolves with results in task order, or rejects on the first failure (killing the rest). */
export function runPool<I, T, R, P>(tasks: readonly T[], opts: PoolOptions<I, R, P>): Promise<R[]> {
  const results: R[] = new Array<R>(tasks.length);
  if (tasks.length === 0) return Promise.resolve(results);
  const n = Math.max(1, Math.min(opts.processes, tasks.length));
  const children: ChildProcess[] = [];
  let next = 0;
  let finished = 0;
  let settled = false;

  return new Promise<R[]>((resolvePool, rejectPool) => {
    const stopAll = (): void => {
      for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    };
    const fail = (e: AssayError): void => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      stopAll();
      // Temporary outputs are cleaned by the caller, so wait until no worker can still write.
      void Promise.all(children.map((c) => exited(c))).then(() => rejectPool(e));
    };
    const onAbort = (): void => fail(new AssayError('CANCELLED', 'cancelled'));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const feed = (child: ChildProcess): void => {
      if (next >= tasks.length) {
        child.disconnect();
        return;
      }
      const id = next++;
      const msg: PoolMessage<I, T> = { type: 'task', id, task: tasks[id] as T };
      child.send(msg);
    };

    for (let w = 0; w < n; w++) {
      const child = fork(opts.entry.modulePath, [], { execArgv: opts.entry.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
      children.push(child);
      child.on('message', (raw: WorkerMessage<R, P>) => {
        if (settled) return;
        switch (raw.type) {
          case 'ready':
            return feed(child);
          case 'progress':
            return opts.onProgress?.(raw.id, raw.delta);
          case 'log':
            return opts.onLog?.(raw.message);
          case 'error':
            return fail(deserializeError(raw.error));
          case 'done':
            results[raw.id] = raw.result;
            opts.onDone?.(raw.id, raw.result);
            if (++finished === tasks.length) {
              settled = true;
              opts.signal?.removeEventListener('abort', onAbort);
              // Let workers exit on their own (they exit on disconnect) so none outlives the run.
              void Promise.all(children.map(exited)).then(() => resolvePool(results));
              for (const c of children) if (c.connected) c.disconnect();
            } else feed(child);
        }
      });
      child.on('exit', (code, sig) => {
        if (!settled && finished < tasks.length && (code !== 0 || next < tasks.length)) {
          fail(new AssayError('INTERNAL', `worker process exited unexpectedly (${sig ?? `code ${code}`})`));
        }
      });
      child.on('error', (e) => fail(new AssayError('INTERNAL', `worker process failed: ${e.message}`)));
      const init: PoolMessage<I, T> = { type: 'init', init: opts.init };
      child.send(init);
    }
  });
}
