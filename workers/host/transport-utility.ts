// The Electron utilityProcess transport, host side: envelopes over `process.parentPort` (Electron types only; no runtime import).
import type { ParentPort } from 'electron';
import type { HostMessage } from '../../shared/contract/index.js';
import { isLaunchMessage } from './jobs/launch-protocol.js';
import { Listeners, type HostEndpoint } from './transport.js';

/** `process.parentPort` when this process is an Electron utility process, else undefined. */
export function parentPortOf(proc: NodeJS.Process = process): ParentPort | undefined {
  return (proc as NodeJS.Process & { parentPort?: ParentPort | null }).parentPort ?? undefined;
}

/** Electron queues messages until a 'message' handler exists, so no ready handshake is needed here. */
export function utilityHostEndpoint(port: ParentPort): HostEndpoint {
  const listeners = new Listeners<unknown>();
  // Job launch messages from main share this port; the job launcher (jobs/launch-utility.ts) takes those.
  const onMessage = (e: { data: unknown }): void => void (!isLaunchMessage(e.data) && listeners.emit(e.data));
  port.on('message', onMessage);
  return {
    send: (m: HostMessage) => port.postMessage(m),
    onMessage: (l) => listeners.add(l),
    close: () => {
      port.off('message', onMessage);
      listeners.clear();
    },
  };
}
