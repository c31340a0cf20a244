// Test stand-in for an Electron utility process (job-launcher.test.ts): gives the script in argv[2] a `process.parentPort` and a MessagePortMain-like port, both carried over Node IPC.
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';

type Wire = { k: 'parent'; data: unknown; port: boolean } | { k: 'port'; data: unknown } | { k: 'port-close' };
const toMain = (m: Wire): void => void process.send?.(m);

/** Like Electron's ports: messages wait until someone listens (parentPort) or start() is called (MessagePortMain). */
class Port extends EventEmitter {
  #queue: unknown[] = [];
  #started = false;
  constructor(private readonly kind: 'parent' | 'port') {
    super();
    if (kind === 'parent') this.on('newListener', (name: string) => name === 'message' && setImmediate(() => this.start()));
  }
  postMessage(data: unknown): void {
    toMain(this.kind === 'parent' ? { k: 'parent', data, port: false } : { k: 'port', data });
  }
  start(): void {
    this.#started = true;
    for (const e of this.#queue.splice(0)) this.emit('message', e);
  }
  close(): void {
    toMain({ k: 'port-close' });
  }
  deliver(event: unknown): void {
    if (this.#started) this.emit('message', event);
    else this.#queue.push(event);
  }
}

const parentPort = new Port('parent');
const port = new Port('port');
process.on('message', (m: Wire) => {
  if (m.k === 'parent') parentPort.deliver({ data: m.data, ports: m.port ? [port] : [] });
  else if (m.k === 'port') port.deliver({ data: m.data, ports: [] });
  else port.emit('close');
});
Object.assign(process, { parentPort });
const script = process.argv[2];
if (script === undefined) throw new Error('usage: job-launcher-fake-child SCRIPT');
await import(pathToFileURL(script).href);
