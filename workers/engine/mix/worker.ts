// Child-process entry of the mixer pool: compiles the recipe once, then mixes the shards it is handed.
import type { MixerConfig } from '../../../shared/recipe/schema.js';
import { serializeError, type PoolMessage, type WorkerMessage } from '../jobs/pool.js';
import { compileStream, type CompiledStream } from './compile.js';
import type { ShardDelta, ShardJob, MixWorkerInit } from './mixer.js';
import { processShard, type ShardStats } from './shard.js';

type Out = WorkerMessage<ShardStats, ShardDelta>;
const send = (m: Out): void => void process.send?.(m);

let init: MixWorkerInit | null = null;
const compiled = new Map<number, CompiledStream>();

function streamOf(config: MixerConfig, s: number): CompiledStream {
  let c = compiled.get(s);
  if (!c) {
    c = compileStream(config.streams[s]!, `streams[${s}]`, { jqTimeoutMs: init?.jqTimeoutMs });
    compiled.set(s, c);
  }
  return c;
}

process.on('message', (msg: PoolMessage<MixWorkerInit, ShardJob>) => {
  if (msg.type === 'init') {
    init = msg.init;
    send({ type: 'ready' });
    return;
  }
  const job = msg.task;
  const cfg = init as MixWorkerInit;
  void (async () => {
    try {
      const stream = cfg.config.streams[job.task.stream]!;
      const stats = await processShard(job.task, stream, streamOf(cfg.config, job.task.stream), {
        ...job.options,
        onProgress: (delta) => send({ type: 'progress', id: msg.id, delta }),
        log: (message) => send({ type: 'log', message }),
      });
      send({ type: 'done', id: msg.id, result: stats });
    } catch (e) {
      send({ type: 'error', id: msg.id, error: serializeError(e) });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
