// runPool over both transports, processes and worker threads: same results, progress, logs, errors with file:line, crashes and cancellation.
import { fork } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AssayError } from '../errors.js';
import { scratchDir } from '../testing.js';
import type { WorkerEntry } from './entry.js';
import type { FixtureInit, FixtureTask } from './pool-fixture-worker.js';
import { poolTransport, runPool, type PoolOptions, type PoolTransport } from './pool.js';

const entry: WorkerEntry = { modulePath: resolve(fileURLToPath(new URL('.', import.meta.url)), 'pool-fixture-worker.ts'), execArgv: ['--import', 'tsx'] };
const TRANSPORTS: PoolTransport[] = ['processes', 'threads'];

interface Seen {
  progress: [number, number][];
  logs: string[];
  done: number[];
}

function run(tasks: FixtureTask[], transport: PoolTransport, extra: Partial<PoolOptions<FixtureInit, unknown, { step: number }>> = {}): { seen: Seen; result: Promise<unknown[]> } {
  const seen: Seen = { progress: [], logs: [], done: [] };
  const result = runPool<FixtureInit, FixtureTask, unknown, { step: number }>(tasks, {
    entry,
    processes: 2,
    init: {},
    transport,
    onProgress: (i, d) => seen.progress.push([i, d.step]),
    onLog: (m) => seen.logs.push(m),
    onDone: (i) => seen.done.push(i),
    ...extra,
  });
  return { seen, result };
}

const caught = async (p: Promise<unknown>): Promise<AssayError> => {
  try {
    await p;
  } catch (e) {
    return e as AssayError;
  }
  throw new Error('expected the pool to fail');
};

/** Threads of this process (Linux): a terminated worker thread is gone from /proc/self/task. */
const threads = (): number => readdirSync('/proc/self/task').length;

describe('runPool transports', () => {
  it('gives the same results, progress and logs over processes and threads', async () => {
    const tasks: FixtureTask[] = [1, 2, 3, 4, 5].map((n) => ({ kind: 'echo', n }));
    const outcome = async (t: PoolTransport): Promise<unknown> => {
      const { seen, result } = run(tasks, t);
      const results = await result;
      // Tasks interleave across workers; per task the order is the worker's.
      const perTask = tasks.map((_, i) => seen.progress.filter(([k]) => k === i).map(([, s]) => s));
      return { results, perTask, logs: [...seen.logs].sort(), done: [...seen.done].sort() };
    };
    const procs = await outcome('processes');
    expect(procs).toEqual({ results: [2, 4, 6, 8, 10], perTask: [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4], [1, 2, 3, 4, 5]], logs: ['echo 1', 'echo 2', 'echo 3', 'echo 4', 'echo 5'], done: [0, 1, 2, 3, 4] });
    expect(await outcome('threads')).toEqual(procs);
  });

  it.each(TRANSPORTS)('%s: a task error arrives with its code, file and line', async (t) => {
    const e = await caught(run([{ kind: 'echo', n: 1 }, { kind: 'fail', file: 'docs/a.jsonl', line: 7 }], t).result);
    expect(e).toBeInstanceOf(AssayError);
    expect({ code: e.code, file: e.file, line: e.line, message: e.message }).toEqual({ code: 'PARSE', file: 'docs/a.jsonl', line: 7, message: 'docs/a.jsonl:7: bad line' });
  });

  it.each(TRANSPORTS)('%s: a failing setup fails the pool with its file and line', async (t) => {
    const e = await caught(run([{ kind: 'echo', n: 1 }], t, { init: { failSetup: true } }).result);
    expect({ code: e.code, file: e.file, line: e.line, message: e.message }).toEqual({ code: 'CONFIG', file: 'setup.yaml', line: 3, message: 'setup.yaml:3: the setup refused' });
  });

  it.each(TRANSPORTS)('%s: a worker that exits holding a task fails the pool instead of hanging it', async (t) => {
    const e = await caught(run([{ kind: 'echo', n: 1 }, { kind: 'exit', code: 0 }], t, { processes: 1 }).result);
    expect(e.code).toBe('INTERNAL');
    expect(e.message).toMatch(/^worker (process|thread) exited unexpectedly \(code 0\)$/);
  });

  it.each(TRANSPORTS)('%s: cancelling stops every worker before the pool settles, and nothing runs or writes after', async (t) => {
    const dir = scratchDir();
    // A warm-up run starts the threads libuv and V8 keep, so the count below sees only the pool's own.
    await run([{ kind: 'echo', n: 1 }], t).result;
    const before = threads();
    const files = [0, 1].map((i) => join(dir, `w${i}`));
    const ac = new AbortController();
    const { result } = run(files.map((path) => ({ kind: 'write', path })), t, { signal: ac.signal });
    const started = Date.now();
    while (!files.every((f) => existsSync(f) && statSync(f).size >= 3)) {
      if (Date.now() - started > 30_000) throw new Error('the workers never started writing');
      await new Promise((r) => setTimeout(r, 10));
    }
    ac.abort();
    const e = await caught(result);
    expect(e.code).toBe('CANCELLED');
    const sizes = files.map((f) => statSync(f).size);
    await new Promise((r) => setTimeout(r, 150));
    expect(files.map((f) => statSync(f).size)).toEqual(sizes);
    expect(threads()).toBeLessThanOrEqual(before);
  });

  it.each(TRANSPORTS)('%s: an already aborted signal starts nothing', async (t) => {
    const ac = new AbortController();
    ac.abort();
    const before = threads();
    expect((await caught(run([{ kind: 'echo', n: 1 }], t, { signal: ac.signal }).result)).code).toBe('CANCELLED');
    expect(threads()).toBeLessThanOrEqual(before);
  });

  it('loads better-sqlite3, zstd-napi, jq-web and fastText (WASM) in worker threads as in processes, in several threads at once', async () => {
    const tasks: FixtureTask[] = [{ kind: 'native' }, { kind: 'native' }, { kind: 'native' }];
    const inProcesses = (await run(tasks, 'processes').result) as Record<string, unknown>[];
    const inThreads = (await run(tasks, 'threads', { processes: 3 }).result) as Record<string, unknown>[];
    const expected = { sqlite: 'ok1.0', zstd: 'zstd ok', jq: '3', fasttext: '__label__fr' };
    for (const r of inProcesses) expect(r).toEqual({ ...expected, thread: false });
    for (const r of inThreads) expect(r).toEqual({ ...expected, thread: true });
  });
});

describe('a pool process whose parent goes away', () => {
  it('sends a worker its next task before handing the last result to onDone, over processes and threads', async () => {
    for (const transport of TRANSPORTS) {
      let handled = 0;
      const starts = (await runPool<FixtureInit, FixtureTask, number, never>([{ kind: 'clock' }, { kind: 'clock' }], {
        entry,
        processes: 1,
        init: {},
        transport,
        onDone: (i) => {
          if (i !== 0) return;
          // A long synchronous write of the result (as an index build does): the worker must not wait for it.
          const until = Date.now() + 400;
          while (Date.now() < until);
          handled = Date.now();
        },
      })) as number[];
      expect(starts[1]).toBeLessThan(handled);
    }
  });

  it('exits quietly when its answer races the disconnect (no EPIPE on its stderr)', async () => {
    const child = fork(entry.modulePath, [], { execArgv: entry.execArgv, stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    let stderr = '';
    child.stderr?.on('data', (b: Buffer) => (stderr += b.toString()));
    await new Promise<void>((ready) => child.once('spawn', ready));
    // Wait for the module to be loaded (it listens for messages) before init: tsx takes a moment.
    await new Promise((r) => setTimeout(r, 1500));
    child.send({ type: 'init', init: { busySetupMs: 400 } satisfies FixtureInit });
    await new Promise((r) => setTimeout(r, 100));
    child.disconnect();
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  }, 20_000);
});

describe('poolTransport', () => {
  it('uses threads inside Electron or when ASSAY_POOL=threads, processes otherwise, and refuses other values', () => {
    const node = { ...process.versions, electron: undefined } as unknown as NodeJS.ProcessVersions;
    expect(poolTransport({}, node)).toBe('processes');
    expect(poolTransport({ ASSAY_POOL: 'threads' }, node)).toBe('threads');
    expect(poolTransport({ ASSAY_POOL: 'processes' }, node)).toBe('processes');
    expect(poolTransport({}, { ...node, electron: '41.7.1' })).toBe('threads');
    // Forking inside Electron would start the app itself, whatever the variable says.
    expect(poolTransport({ ASSAY_POOL: 'processes' }, { ...node, electron: '41.7.1' })).toBe('threads');
    expect(() => poolTransport({ ASSAY_POOL: 'fibers' }, node)).toThrow("ASSAY_POOL: must be 'threads' or 'processes', not 'fibers'");
  });
});
