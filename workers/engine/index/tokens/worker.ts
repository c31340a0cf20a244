// Child-process entry of the token-count phase: loads the tokenizer once, then counts whole documents files.
import { serveWorker } from '../../jobs/serve-worker.js';
import { loadTokenizer, type TextTokenizer } from '../../tokenize/tokenizer/load.js';
import { countFile, type CountInit, type CountProgress, type CountTask, type FileCounts } from './count.js';

serveWorker<CountInit, { tokenizer: TextTokenizer; eos: number }, CountTask, FileCounts, CountProgress>(
  async (init) => ({ tokenizer: await loadTokenizer({ nameOrPath: init.name }), eos: init.eos }),
  (task, s, hooks) => countFile(task, s.tokenizer, s.eos, { onProgress: hooks.onProgress }),
);
