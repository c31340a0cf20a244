// The child_process transport: the host runs in a forked Node process and envelopes travel over its IPC channel.
import type { ChildProcess } from 'node:child_process';
import type { HostMessage, RequestEnvelope } from '../../shared/contract/index.js';
import { Listeners, type ClientEndpoint, type HostEndpoint } from './transport.js';

/** Sent once by the host when it listens: a fork's IPC messages that arrive before a listener exists would be lost. */
const READY = { type: 'ready' } as const;

const ignore = (): void => undefined;

const isReady = (m: unknown): boolean => typeof m === 'object' && m !== null && (m as { type?: unknown }).type === 'ready';

/** Host side, inside the forked process. */
export function processHostEndpoint(proc: NodeJS.Process = process): HostEndpoint {
  const send = proc.send?.bind(proc);
  if (!send) throw new Error('the host was not started with an IPC channel (fork it with child_process.fork)');
  const listeners = new Listeners<unknown>();
  const onMessage = (m: unknown): void => listeners.emit(m);
  proc.on('message', onMessage);
  // With a callback, a write that fails later (the parent went away) is reported there instead of as an
  // 'error' event on the process, which nothing would handle. Serialization errors still throw, synchronously, to the caller.
  send(READY, undefined, {}, ignore);
  return {
    send: (m: HostMessage) => void (proc.connected && send(m, undefined, {}, ignore)),
    onMessage: (l) => listeners.add(l),
    close: () => {
      proc.off('message', onMessage);
      listeners.clear();
    },
  };
}

/** App side: wraps the forked child; requests wait until the host said it listens. */
export function childClientEndpoint(child: ChildProcess): ClientEndpoint & { ready: Promise<void> } {
  const listeners = new Listeners<HostMessage>();
  let queue: RequestEnvelope[] | null = [];
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  const onMessage = (m: unknown): void => {
    if (isReady(m)) {
      const pending = queue ?? [];
      queue = null;
      for (const r of pending) trySend(r);
      markReady();
      return;
    }
    listeners.emit(m as HostMessage);
  };
  child.on('message', onMessage);
  // A child that died leaves sends failing with EPIPE / ERR_IPC_CHANNEL_CLOSED: never an unhandled 'error' (the supervisor sees the exit).
  child.on('error', ignore);
  /** Queued requests were accepted already, so one that cannot be serialized is answered here rather than thrown. */
  const trySend = (r: RequestEnvelope): void => {
    try {
      if (child.connected) child.send(r, undefined, {}, ignore);
    } catch (e) {
      listeners.emit({ type: 'response', id: r.id, ok: false, error: { code: 'BAD_REQUEST', message: `${r.method}: the params cannot be sent to the engine host (${(e as Error).message})` } });
    }
  };
  return {
    ready,
    send: (m) => {
      if (queue) queue.push(m);
      else if (child.connected) child.send(m, undefined, {}, ignore);
    },
    onMessage: (l) => listeners.add(l),
    close: () => {
      child.off('message', onMessage);
      listeners.clear();
    },
  };
}
