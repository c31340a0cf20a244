// The job runner's channel to its host, whoever launched it: process IPC when forked by a Node host, a MessagePort from main when it is a utility process.
import type { MessagePortMain } from 'electron';
import { parentPortOf } from '../transport-utility.js';
import { isLaunchMessage } from './launch-protocol.js';
import type { RunnerMessage, RunnerRequest } from './protocol.js';

export interface RunnerChannel {
  /** Resolves once the message has left this process (or cannot any more). */
  send(message: RunnerMessage): Promise<void>;
  onMessage(listener: (message: RunnerRequest) => void): void;
  /** The host went away (crash or kill). */
  onDisconnect(listener: () => void): void;
  /** Before exiting: lets the last messages go. */
  close(): Promise<void>;
}

export function runnerChannel(proc: NodeJS.Process = process): RunnerChannel {
  const parent = parentPortOf(proc);
  return parent ? utilityChannel(parent) : ipcChannel(proc);
}

function ipcChannel(proc: NodeJS.Process): RunnerChannel {
  return {
    send: (m) =>
      new Promise((resolve) => {
        if (!proc.send || !proc.connected) return resolve();
        proc.send(m, undefined, {}, () => resolve());
      }),
    onMessage: (l) => void proc.on('message', (m: RunnerRequest) => l(m)),
    onDisconnect: (l) => void proc.on('disconnect', l),
    close: () => Promise.resolve(),
  };
}

/** How long a closing port is given before the process exits: its last messages are already written, this covers a full pipe. */
const CLOSE_GRACE_MS = 200;

/** Main sends `assay.job.port` with the port to the host; the runner protocol runs over it, unchanged. */
function utilityChannel(parent: NonNullable<ReturnType<typeof parentPortOf>>): RunnerChannel {
  let port: MessagePortMain | null = null;
  let closed = false;
  const queue: RunnerMessage[] = [];
  const messages: ((m: RunnerRequest) => void)[] = [];
  const gone: (() => void)[] = [];
  parent.on('message', (e) => {
    if (port || !isLaunchMessage(e.data) || e.data.type !== 'assay.job.port' || !e.ports[0]) return;
    port = e.ports[0];
    port.on('message', (ev) => {
      for (const l of messages) l(ev.data as RunnerRequest);
    });
    port.on('close', () => {
      closed = true;
      for (const l of gone) l();
    });
    port.start();
    for (const m of queue.splice(0)) port.postMessage(m);
  });
  return {
    send: (m) => {
      if (closed) return Promise.resolve();
      if (port) port.postMessage(m);
      else queue.push(m);
      return new Promise((resolve) => setImmediate(resolve));
    },
    onMessage: (l) => void messages.push(l),
    onDisconnect: (l) => void gone.push(l),
    close: async () => {
      if (port && !closed) port.close();
      closed = true;
      await new Promise((resolve) => setTimeout(resolve, CLOSE_GRACE_MS));
    },
  };
}
