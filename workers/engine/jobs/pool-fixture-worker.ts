// Test worker for pool.test.ts: tasks that report progress and logs, fail with file:line, crash, write until stopped, or load the native modules.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';
import type * as ZstdNapi from 'zstd-napi';
import { AssayError } from '../errors.js';
import { loadFastTextModel } from '../tag/taggers/fasttext/model.js';
import { serveWorker } from './serve-worker.js';

export type FixtureTask =
  | { kind: 'echo'; n: number }
  | { kind: 'fail'; file: string; line: number }
  | { kind: 'exit'; code: number }
  | { kind: 'write'; path: string }
  | { kind: 'native' }
  | { kind: 'clock' }
  | { kind: 'argv' };

export interface FixtureInit {
  failSetup?: boolean;
  /** Blocks the setup this long (ms), so the parent can go away before the worker answers. */
  busySetupMs?: number;
}

const require = createRequire(import.meta.url);

/** Opens SQLite, round-trips zstd and loads the WASM modules the pool workers use, in this thread or process. */
async function natives(): Promise<Record<string, unknown>> {
  const Database = require('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(':memory:');
  const sqlite = (db.prepare("SELECT 'ok' || ? AS v").get(1) as { v: string }).v;
  db.close();
  const z = require('zstd-napi') as typeof ZstdNapi;
  const zstd = z.decompress(z.compress(Buffer.from('zstd ok'))).toString();
  const jq = (await (require('jq-web') as Promise<{ raw(input: string, program: string, flags: string[]): string }>)).raw('{"a":[1,2]}', '.a|add', ['-c']);
  const model = await loadFastTextModel();
  const lang = model.predict('Ceci est une phrase en français sur la rivière et la ville.', 1, 0)[0]?.label;
  model.release();
  return { sqlite, zstd, jq, fasttext: lang, thread: !isMainThread };
}

serveWorker<FixtureInit, FixtureInit, FixtureTask, unknown, { step: number }>(
  (init) => {
    const until = Date.now() + (init.busySetupMs ?? 0);
    while (Date.now() < until);
    if (init.failSetup) throw new AssayError('CONFIG', 'the setup refused', { file: 'setup.yaml', line: 3 });
    return init;
  },
  async (task, _init, hooks) => {
    switch (task.kind) {
      case 'echo':
        for (let i = 1; i <= task.n; i++) hooks.onProgress({ step: i });
        hooks.log(`echo ${task.n}`);
        return task.n * 2;
      case 'fail':
        throw new AssayError('PARSE', 'bad line', { file: task.file, line: task.line });
      case 'exit':
        return process.exit(task.code);
      case 'write':
        // Appends until the pool stops this worker: the test checks nothing is written after cancel.
        for (;;) {
          appendFileSync(task.path, 'x');
          await new Promise((r) => setTimeout(r, 5));
        }
      case 'native':
        return natives();
      case 'argv':
        // The flags this worker's process started with (the pool test checks V8's are there).
        return process.execArgv;
      case 'clock':
        // When this task started: the pool test checks the next task starts while the parent handles a result.
        return Date.now();
    }
  },
);
