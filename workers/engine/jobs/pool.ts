// A worker pool: one child process (measured faster here) or one worker thread (where Node cannot be forked) per core, each taking whole tasks.
import { AssayError, type AssayErrorCode } from '../errors.js';
import type { WorkerEntry } from './entry.js';
import { poolTransport, spawnPoolChild, type PoolChild, type PoolTransport } from './pool-child.js';
import { poolV8Flags } from './v8-flags.js';

export { poolTransport, type PoolTransport } from './pool-child.js';

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
  /** Processes or threads; by default what this environment can run (`poolTransport()`). */
  transport?: PoolTransport;
}

/** Runs every task; resolves with results in task order, or rejects on the first failure (stopping the rest). */
export function runPool<I, T, R, P>(tasks: readonly T[], opts: PoolOptions<I, R, P>): Promise<R[]> {
  const results: R[] = new Array<R>(tasks.length);
  if (tasks.length === 0) return Promise.resolve(results);
  const n = Math.max(1, Math.min(opts.processes, tasks.length));
  let transport: PoolTransport;
  let v8Flags: string[];
  try {
    transport = opts.transport ?? poolTransport();
    v8Flags = poolV8Flags(n);
  } catch (e) {
    return Promise.reject(e as Error);
  }
  const children: PoolChild[] = [];
  let next = 0;
  let finished = 0;
  let settled = false;

  return new Promise<R[]>((resolvePool, rejectPool) => {
    const fail = (e: AssayError): void => {
      if (settled) return;
      settled = true;
      opts.signal?.removeEventListener('abort', onAbort);
      for (const c of children) c.stop();
      // Temporary outputs are cleaned by the caller, so wait until no worker can still write.
      void Promise.all(children.map((c) => c.exited())).then(() => rejectPool(e));
    };
    const onAbort = (): void => fail(new AssayError('CANCELLED', 'cancelled'));
    if (opts.signal?.aborted) return onAbort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    const feed = (child: PoolChild): void => {
      if (next >= tasks.length) return child.end();
      const id = next++;
      const msg: PoolMessage<I, T> = { type: 'task', id, task: tasks[id] as T };
      child.send(msg);
    };

    for (let w = 0; w < n && !settled; w++) {
      let child: PoolChild;
      try {
        child = spawnPoolChild(opts.entry, transport, v8Flags);
      } catch (e) {
        return fail(new AssayError('INTERNAL', `cannot start a pool worker: ${(e as Error).message}`));
      }
      children.push(child);
      child.onMessage((m) => {
        const raw = m as WorkerMessage<R, P>;
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
          case 'done': {
            results[raw.id] = raw.result;
            const last = ++finished === tasks.length;
            // The next task goes out before this result is handled (an index build writes it for a while): the
            // worker reads its next file meanwhile instead of waiting for this process.
            if (!last) feed(child);
            opts.onDone?.(raw.id, raw.result);
            if (last) {
              settled = true;
              opts.signal?.removeEventListener('abort', onAbort);
              // Every worker is told to go and waited for, so none outlives the run.
              for (const c of children) c.end();
              void Promise.all(children.map((c) => c.exited())).then(() => resolvePool(results));
            }
            return;
          }
        }
      });
      child.onExit((clean, reason) => {
        if (!settled && finished < tasks.length && !clean) fail(new AssayError('INTERNAL', reason));
      });
      child.onError((e) => fail(new AssayError('INTERNAL', e.message)));
      const init: PoolMessage<I, T> = { type: 'init', init: opts.init };
      child.send(init);
    }
  });
}
