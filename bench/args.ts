// `--name value` options of the bench scripts (numbers, with defaults), read from process.argv, and the smoke-test scale.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function numberArg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}

export function stringArg(name: string, def: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? def) : def;
}

/**
 * `ASSAY_BENCH_SMOKE=1` runs the same commands on tiny data in a folder of their own (`bench/.data-smoke`),
 * so a test can run every bench command the README shows, verbatim, in seconds. Its numbers mean nothing.
 */
export const SMOKE = process.env.ASSAY_BENCH_SMOKE === '1';

/** `full` normally, `smoke` under ASSAY_BENCH_SMOKE=1. */
export const scaled = <T>(full: T, smoke: T): T => (SMOKE ? smoke : full);

/** Where benches keep their generated data (git-ignored). */
export const DATA_DIR = fileURLToPath(new URL(SMOKE ? './.data-smoke' : './.data', import.meta.url));

let canPin: boolean | undefined;

/**
 * Runs a measuring process (argv `node`) and parses the JSON of its last stdout line. It is pinned to core 0, so
 * "per core" means one core, unless `pin` is false or this is a smoke run: smoke numbers mean nothing, and the README
 * test runs two benches at once, which pinning would put on one core.
 */
export function runMeasured<T>(node: string[], what: string, opts: { pin?: boolean; maxBuffer?: number; env?: NodeJS.ProcessEnv } = {}): T {
  canPin ??= spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  const [cmd, ...args] = (opts.pin ?? true) && !SMOKE && canPin ? ['taskset', '-c', '0', ...node] : node;
  const r = spawnSync(cmd as string, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...(opts.maxBuffer ? { maxBuffer: opts.maxBuffer } : {}), ...(opts.env ? { env: opts.env } : {}) });
  if (r.status !== 0) throw new Error(`${what} failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '{}') as T;
}
