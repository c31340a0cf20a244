// Child-process entry of the tagging pool: rebuilds the registry (with user modules) and tags files.
import { serveWorker } from '../jobs/serve-worker.js';
import { tagFile, type FileResult, type FileTask } from './file.js';
import { TaggerRegistry } from './registry.js';
import type { TagWorkerInit, WireTask } from './runtime.js';

function fromWire(task: WireTask, reg: TaggerRegistry): FileTask {
  return { ...task, outputs: task.outputs.map((o) => ({ ...o, taggers: o.taggers.map((t) => ({ spec: reg.get(t.name), options: t.options, prefix: t.prefix })) })) };
}

serveWorker<TagWorkerInit, { init: TagWorkerInit; registry: TaggerRegistry }, WireTask, FileResult, { compressedBytes: number; bytes: number; docs: number }>(
  async (init) => {
    const registry = new TaggerRegistry();
    for (const m of init.taggerModules) await registry.loadModule(m, init.cwd);
    return { init, registry };
  },
  (task, { init, registry }, hooks) => tagFile(fromWire(task, registry), { skipBadLines: init.skipBadLines, compressionLevel: init.compressionLevel, ...hooks }),
);
