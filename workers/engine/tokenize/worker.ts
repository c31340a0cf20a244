// Child-process entry of the tokenize pool: loads the tokenizer once, then tokenizes whole output groups.
import { serializeError, type PoolMessage, type WorkerMessage } from '../jobs/pool.js';
import { tokenizeGroup, type GroupResult, type GroupTask } from './group.js';
import type { GroupProgress, TokensWorkerInit } from './runtime.js';
import { loadTokenizer, type TextTokenizer } from './tokenizer/load.js';

type Out = WorkerMessage<GroupResult, GroupProgress>;
const send = (m: Out): void => void process.send?.(m);
let init: TokensWorkerInit | null = null;
let tokenizer: TextTokenizer | null = null;

process.on('message', (msg: PoolMessage<TokensWorkerInit, GroupTask>) => {
  void (async () => {
    if (msg.type === 'init') {
      try {
        init = msg.init;
        tokenizer = await loadTokenizer({ ...init.tokenizer, cwd: init.cwd });
        send({ type: 'ready' });
      } catch (e) {
        send({ type: 'error', id: -1, error: serializeError(e) });
      }
      return;
    }
    try {
      const r = await tokenizeGroup(msg.task, tokenizer as TextTokenizer, (init as TokensWorkerInit).settings, {
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
