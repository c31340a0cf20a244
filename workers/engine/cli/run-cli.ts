// Test helper: run the built `assay` CLI as a real process (exit code, stdout, stderr).
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../testing.js';

let built = false;

/** Bundles the engine once per test process, so CLI tests exercise exactly what `npx assay` runs. */
export function ensureBuilt(): void {
  if (built) return;
  execFileSync(process.execPath, [join(REPO_ROOT, 'scripts/build-engine.mjs')], { stdio: 'inherit' });
  built = true;
}

/** A progress line, which a run printing to a pipe writes every 5 s: how many depends on the machine's speed. */
const PROGRESS_LINE = /^\S+ [█░]+ +\d+% · files \d+\/\d+ · /;

/** stderr without progress lines, for tests asserting what else a run said (a busy machine may slow a run past 5 s). */
export const withoutProgress = (stderr: string): string => stderr.split('\n').filter((l) => !PROGRESS_LINE.test(l)).join('\n');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: readonly string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  ensureBuilt();
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'bin/assay.js'), ...args], {
    cwd: opts.cwd ?? REPO_ROOT,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
