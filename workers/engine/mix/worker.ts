// Child-process entry of the mixer pool: compiles the recipe once, then mixes the shards it is handed.
import { serveWorker } from '../jobs/serve-worker.js';
import { compileStream, type CompiledStream } from './compile.js';
import type { ShardDelta, ShardJob, MixWorkerInit } from './mixer.js';
import { processShard, type ShardStats } from './shard.js';

const compiled = new Map<number, CompiledStream>();

function streamOf(cfg: MixWorkerInit, s: number): CompiledStream {
  let c = compiled.get(s);
  if (!c) {
    c = compileStream(cfg.config.streams[s]!, `streams[${s}]`, { jqTimeoutMs: cfg.jqTimeoutMs });
    compiled.set(s, c);
  }
  return c;
}

serveWorker<MixWorkerInit, MixWorkerInit, ShardJob, ShardStats, ShardDelta>(
  (init) => init,
  (job, cfg, hooks) => processShard(job.task, cfg.config.streams[job.task.stream]!, streamOf(cfg, job.task.stream), { ...job.options, ...hooks }),
);
