// Pool workers start with V8's background threads off exactly when the pool fills every core (or when asked), and work the same.
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssayError } from '../errors.js';
import type { WorkerEntry } from './entry.js';
import type { FixtureInit, FixtureTask } from './pool-fixture-worker.js';
import { runPool } from './pool.js';
import { poolV8Flags, SINGLE_THREADED } from './v8-flags.js';

const entry: WorkerEntry = { modulePath: resolve(fileURLToPath(new URL('.', import.meta.url)), 'pool-fixture-worker.ts'), execArgv: ['--import', 'tsx'] };
const saved = process.env.ASSAY_V8_BACKGROUND;
afterEach(() => {
  if (saved === undefined) delete process.env.ASSAY_V8_BACKGROUND;
  else process.env.ASSAY_V8_BACKGROUND = saved;
});

describe('poolV8Flags', () => {
  it('turns the background threads off when the workers fill every core, keeps them with a core to spare', () => {
    expect(poolV8Flags(2, {}, 2)).toEqual([SINGLE_THREADED]);
    expect(poolV8Flags(8, {}, 4)).toEqual([SINGLE_THREADED]);
    expect(poolV8Flags(1, {}, 1)).toEqual([SINGLE_THREADED]);
    expect(poolV8Flags(1, {}, 2)).toEqual([]);
    expect(poolV8Flags(3, {}, 8)).toEqual([]);
  });

  it('follows ASSAY_V8_BACKGROUND=on|off whatever the cores, and refuses other values naming the variable', () => {
    expect(poolV8Flags(8, { ASSAY_V8_BACKGROUND: 'on' }, 2)).toEqual([]);
    expect(poolV8Flags(1, { ASSAY_V8_BACKGROUND: 'off' }, 8)).toEqual([SINGLE_THREADED]);
    expect(poolV8Flags(1, { ASSAY_V8_BACKGROUND: '' }, 8)).toEqual([]);
    expect(() => poolV8Flags(1, { ASSAY_V8_BACKGROUND: 'yes' }, 8)).toThrow("ASSAY_V8_BACKGROUND: must be 'on' or 'off', not 'yes'");
  });
});

describe('pool processes and their V8 flags', () => {
  const tasks: FixtureTask[] = [{ kind: 'argv' }, { kind: 'native' }, { kind: 'argv' }];
  const pool = (processes: number): Promise<unknown[]> => runPool<FixtureInit, FixtureTask, unknown, never>(tasks, { entry, processes, init: {}, transport: 'processes' });
  const native = { sqlite: 'ok1.0', zstd: 'zstd ok', jq: '3', fasttext: '__label__fr', thread: false };

  it('starts the workers with --single-threaded when asked, and SQLite, zstd, jq and fastText (WASM) work the same there', async () => {
    process.env.ASSAY_V8_BACKGROUND = 'off';
    const [a, n, b] = await pool(2);
    expect(a).toContain(SINGLE_THREADED);
    expect(b).toContain(SINGLE_THREADED);
    expect(n).toEqual(native);
    process.env.ASSAY_V8_BACKGROUND = 'on';
    const [c, m] = await pool(2);
    expect(c).not.toContain(SINGLE_THREADED);
    expect(m).toEqual(native);
  });

  it('decides by the pool it starts: as many workers as cores get the flag, a single worker beside idle cores does not', async () => {
    delete process.env.ASSAY_V8_BACKGROUND;
    const cores = availableParallelism();
    const [full] = await pool(cores);
    expect(full).toContain(SINGLE_THREADED);
    if (cores > 1) expect((await pool(1))[0]).not.toContain(SINGLE_THREADED);
  });

  it('fails the run before starting a worker when the variable has a bad value', async () => {
    process.env.ASSAY_V8_BACKGROUND = 'sometimes';
    await expect(pool(1)).rejects.toMatchObject({ field: 'ASSAY_V8_BACKGROUND' } satisfies Partial<AssayError>);
  });
});
