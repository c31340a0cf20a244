// Child-process entry of the `assay warc` pool: each task is one WARC file, processed with the run's options.
import { serveWorker } from '../jobs/serve-worker.js';
import { processWarcFile } from './file.js';
import type { WarcFileOptions, WarcFileResult, WarcProgressDelta, WarcTask } from './types.js';

serveWorker<WarcFileOptions, WarcFileOptions, WarcTask, WarcFileResult, WarcProgressDelta>(
  (init) => init,
  (task, options, hooks) => processWarcFile(task, options, hooks),
);
