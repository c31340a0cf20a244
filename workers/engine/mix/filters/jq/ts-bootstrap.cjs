// Worker bootstrap when running from TypeScript sources: worker_threads ignore `--import tsx` on Node 20,
// so register tsx's ESM loader here first, then load the real worker. Failures are reported like a worker would.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS bootstrap, loaded before any loader exists
const { workerData } = require('node:worker_threads');
import(workerData.tsxApi)
  .then((api) => { api.register(); return import(workerData.entry); })
  .catch((e) => {
    workerData.port.postMessage({ type: 'fatal', id: 0, message: 'cannot start the jq worker: ' + String(e) });
    const flag = new Int32Array(workerData.flag);
    Atomics.store(flag, 0, 1);
    Atomics.notify(flag, 0);
  });
