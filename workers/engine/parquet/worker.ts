// Child-process entry of the import pool: each task is one Parquet file imported by importFile.
import { serveWorker } from '../jobs/serve-worker.js';
import { importFile, type ImportDelta, type ImportFileSummary, type ImportTask } from './file.js';

serveWorker<null, null, ImportTask, ImportFileSummary, ImportDelta>(
  () => null,
  (task, _state, hooks) => importFile(task, { onProgress: hooks.onProgress }),
);
