// Child-process entry of the tagging pool: rebuilds the registry (with user modules) and tags files.
import { serializeError, type PoolMessage, type WorkerMessage } from '../jobs/pool.js';
import { tagFile, type FileResult, type FileTask } from './file.js';
import { TaggerRegistry } from './registry.js';
import type { TagWorkerInit, WireTask } from './runtime.js';

type Out = WorkerMessage<FileResult, { compressedBytes: number; bytes: number; docs: number }>;
const send = (m: Out): void => void process.send?.(m);
let init: TagWorkerInit | null = null;
let registry: TaggerRegistry | null = null;

function fromWire(task: WireTask, reg: TaggerRegistry): FileTask {
  return { ...task, outputs: task.outputs.map((o) => ({ ...o, taggers: o.taggers.map((t) => ({ spec: reg.get(t.name), options: t.options, prefix: t.prefix })) })) };
}

process.on('message', (msg: PoolMessage<TagWorkerInit, WireTask>) => {
  void (async () => {
    if (msg.type === 'init') {
      try {
        init = msg.init;
        registry = new TaggerRegistry();
        for (const m of init.taggerModules) await registry.loadModule(m, init.cwd);
        send({ type: 'ready' });
      } catch (e) {
        send({ type: 'error', id: -1, error: serializeError(e) });
      }
      return;
    }
    try {
      const r = await tagFile(fromWire(msg.task, registry as TaggerRegistry), {
        skipBadLines: init?.skipBadLines,
        onProgress: (delta) => send({ type: 'progress', id: msg.id, delta }),
        log: (message) => send({ type: 'log', message }),
      });
      send({ type: 'done', id: msg.id, result: r });
    } catch (e) {
      send({ type: 'error', id: msg.id, error: serializeError(e) });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
