// Child-process entry of the index build: reads whole documents files (with their attribute files) and returns columns.
import { serializeError, type PoolMessage, type WorkerMessage } from '../../jobs/pool.js';
import { extractFile, type ExtractTask, type FileExtract } from './extract.js';

type Out = WorkerMessage<FileExtract, null>;
const send = (m: Out): void => void process.send?.(m);

process.on('message', (msg: PoolMessage<null, ExtractTask>) => {
  if (msg.type === 'init') {
    send({ type: 'ready' });
    return;
  }
  void (async () => {
    try {
      send({ type: 'done', id: msg.id, result: await extractFile(msg.task) });
    } catch (e) {
      send({ type: 'error', id: msg.id, error: serializeError(e) });
    }
  })();
});

process.on('disconnect', () => process.exit(0));
