// jq worker thread: loads jq-web (jq 1.7 in WASM) once, then answers one `jq -c` run per request.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { sendReply, type JqReply, type JqRequest, type JqWorkerData } from './protocol.js';

interface JqWeb {
  raw(input: string, program: string, flags: string[]): string | undefined;
}
/** What jq-web throws when jq exits non-zero; anything else is a failure of the interpreter itself. */
interface JqExit {
  exitCode?: number;
  stderr?: string;
  message?: string;
}

const data = workerData as JqWorkerData;
const flag = new Int32Array(data.flag);
const reply = (r: JqReply): void => sendReply(data, flag, r);

capMemory(data.memoryCapBytes);

let jq: JqWeb | null = null;
const loading = createRequire(import.meta.url)('jq-web') as Promise<JqWeb>;
loading.then(
  (m) => {
    jq = m;
    reply({ type: 'ready', id: 0 });
  },
  (e: unknown) => reply({ type: 'fatal', id: 0, message: `cannot load jq-web: ${String(e)}` }),
);

parentPort?.on('message', (req: JqRequest) => {
  if (jq === null) return reply({ type: 'fatal', id: req.id, message: 'jq-web is not loaded' });
  try {
    reply({ type: 'ok', id: req.id, stdout: jq.raw(req.input, req.program, ['-c']) ?? '' });
  } catch (e) {
    const x = (e ?? {}) as JqExit;
    if (typeof x.exitCode === 'number') reply({ type: 'jq-error', id: req.id, exitCode: x.exitCode, stderr: x.stderr ?? x.message ?? '' });
    else reply({ type: 'fatal', id: req.id, message: e instanceof Error ? e.message : String(e) });
  }
});

/**
 * jq-web's heap may grow to 2 GB; a runaway program (`[range(1e10)]`) should fail long before that.
 * Emscripten treats a throwing `grow` as allocation failure, so jq reports out-of-memory and aborts,
 * which surfaces here as a fatal error and gets the worker replaced.
 */
function capMemory(capBytes: number): void {
  // The engine's TypeScript lib has no WebAssembly declarations; this is the part we touch.
  type WasmMemory = { readonly buffer: ArrayBuffer; grow(delta: number): number };
  const proto = (globalThis as unknown as { WebAssembly: { Memory: { prototype: WasmMemory } } }).WebAssembly.Memory.prototype;
  const grow = proto.grow;
  proto.grow = function (this: WasmMemory, delta: number): number {
    if (this.buffer.byteLength + delta * 65536 > capBytes) throw new RangeError('jq memory budget exceeded');
    return grow.call(this, delta);
  };
}
