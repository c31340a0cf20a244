// The child side of runPool: one init message, then tasks, each answered with progress, logs and a result or an error.
import { serializeError, type PoolMessage, type WorkerMessage } from './pool.js';

export interface TaskHooks<P> {
  onProgress: (delta: P) => void;
  log: (message: string) => void;
}

/**
 * Serves pool tasks in this process. `setup` runs once with the init payload (a failure is reported as
 * task -1, which fails the pool); each task then gets the setup's state. Exits when the parent goes away.
 */
export function serveWorker<I, S, T, R, P>(setup: (init: I) => S | Promise<S>, run: (task: T, state: S, hooks: TaskHooks<P>) => Promise<R>): void {
  const send = (m: WorkerMessage<R, P>): void => void process.send?.(m);
  let state: S | undefined;
  process.on('message', (msg: PoolMessage<I, T>) => {
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
  process.on('disconnect', () => process.exit(0));
}
