// Child-process entry of the index build: reads whole documents files (with their attribute files) and returns columns.
import { serveWorker } from '../../jobs/serve-worker.js';
import { extractFile, type ExtractTask, type FileExtract } from './extract.js';

serveWorker<null, null, ExtractTask, FileExtract, null>(
  () => null,
  (task) => extractFile(task),
);
