// The worker side of runPool, in a child process (IPC) or a worker thread (parentPort): one init message, then tasks, each answered with progress, logs and a result or an error.
import { parentPort } from 'node:worker_threads';
import { serializeError, type PoolMessage, type WorkerMessage } from './pool.js';

export interface TaskHooks<P> {
  onProgress: (delta: P) => void;
  log: (message: string) => void;
}

/** The channel to the pool: the thread's parentPort when this is a worker thread, else the process's IPC. */
interface PoolChannel {
  send(m: unknown): void;
  onMessage(l: (m: unknown) => void): void;
}

function poolChannel(): PoolChannel {
  const port = parentPort;
  if (port !== null) return { send: (m) => port.postMessage(m), onMessage: (l) => void port.on('message', l) };
  // A process whose parent went away (the pool is done, or its job ended) has nobody to work for.
  process.on('disconnect', () => process.exit(0));
  // A send racing the parent's disconnect fails with EPIPE: with a callback that is an error we can ignore (the
  // parent no longer wants the answer), without one it is an unhandled 'error' event printed to the job's stderr.
  const send = (m: unknown): void => {
    if (process.connected) process.send?.(m, undefined, undefined, (e) => e && process.exit(0));
  };
  return { send, onMessage: (l) => void process.on('message', l) };
}

/**
 * Serves pool tasks here. `setup` runs once with the init payload (a failure is reported as task -1,
 * which fails the pool); each task then gets the setup's state. A process exits when the parent
 * disconnects; a thread is ended by the pool.
 */
export function serveWorker<I, S, T, R, P>(setup: (init: I) => S | Promise<S>, run: (task: T, state: S, hooks: TaskHooks<P>) => Promise<R>): void {
  const channel = poolChannel();
  const send = (m: WorkerMessage<R, P>): void => channel.send(m);
  let state: S | undefined;
  channel.onMessage((raw) => {
    const msg = raw as PoolMessage<I, T>;
    void (async () => {
      if (msg.type === 'init') {
        try {
          state = await setup(msg.init);
          send({ type: 'ready' });
        } catch (e) {
          send({ type: 'error', id: -1, error: serializeError(e) });
        }
        return;
      }
      try {
        const result = await run(msg.task, state as S, {
          onProgress: (delta) => send({ type: 'progress', id: msg.id, delta }),
          log: (message) => send({ type: 'log', message }),
        });
        send({ type: 'done', id: msg.id, result });
      } catch (e) {
        send({ type: 'error', id: msg.id, error: serializeError(e) });
      }
    })();
  });
}
