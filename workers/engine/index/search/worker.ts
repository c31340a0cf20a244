// Child-process entry of the search phase: one task is one shard's files, each committed as it finishes.
import { serveWorker } from '../../jobs/serve-worker.js';
import { indexShardFiles, type ShardProgress, type ShardTask } from './shard.js';

serveWorker<null, null, ShardTask, number, ShardProgress>(
  () => null,
  (task, _state, hooks) => indexShardFiles(task, { onFile: (p) => hooks.onProgress(p), log: hooks.log }),
);
