// Child-process entry of the tokenize pool: loads the tokenizer once, then tokenizes whole output groups.
import { serveWorker } from '../jobs/serve-worker.js';
import { tokenizeGroup, type GroupResult, type GroupTask } from './group.js';
import type { GroupProgress, TokensWorkerInit } from './runtime.js';
import { loadTokenizer, type TextTokenizer } from './tokenizer/load.js';

serveWorker<TokensWorkerInit, { init: TokensWorkerInit; tokenizer: TextTokenizer }, GroupTask, GroupResult, GroupProgress>(
  async (init) => ({ init, tokenizer: await loadTokenizer({ ...init.tokenizer, cwd: init.cwd }) }),
  (task, { init, tokenizer }, hooks) => tokenizeGroup(task, tokenizer, init.settings, hooks),
);
