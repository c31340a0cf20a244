// `--name value` options of the bench scripts (numbers, with defaults), read from process.argv, and the smoke-test scale.
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
