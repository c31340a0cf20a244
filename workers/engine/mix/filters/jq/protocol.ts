// Messages between the synchronous jq runner (caller thread) and its worker thread.
import type { MessagePort } from 'node:worker_threads';

/**
 * Handed to the worker at spawn. `flag` is a shared Int32 the caller blocks on with Atomics.wait:
 * the worker posts its reply on `port`, then stores 1 and notifies, and the caller reads the reply
 * with receiveMessageOnPort — so the caller never needs its event loop.
 */
export interface JqWorkerData {
  flag: SharedArrayBuffer;
  port: MessagePort;
  /** Upper bound for the WASM heap; growing past it fails like an out-of-memory. */
  memoryCapBytes: number;
}

/** One `jq -c PROGRAM` run over `input` (JSON texts separated by newlines). */
export interface JqRequest {
  id: number;
  program: string;
  input: string;
}

export type JqReply =
  | { type: 'ready'; id: 0 }
  | { type: 'ok'; id: number; stdout: string }
  /** jq exited non-zero: 2 = input/usage error, 3 = compile error, 5 = uncaught runtime error. */
  | { type: 'jq-error'; id: number; exitCode: number; stderr: string }
  /** The interpreter itself failed (abort, out of memory, stack overflow): the worker must be replaced. */
  | { type: 'fatal'; id: number; message: string };

/** Index of the wake-up word in `flag`. */
export const FLAG_INDEX = 0;

/** Post a reply and wake the caller blocked on `flag`. */
export function sendReply(data: JqWorkerData, flag: Int32Array, reply: JqReply): void {
  data.port.postMessage(reply);
  Atomics.store(flag, FLAG_INDEX, 1);
  Atomics.notify(flag, FLAG_INDEX);
}
