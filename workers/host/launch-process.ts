// Launches the engine host as a forked Node process (browser mode, tests): the child_process side of supervision.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cachedFork, type CachedFork } from '../engine/code-cache/fork.js';
import type { HostLauncher, LaunchedHost } from './supervisor.js';
import { childClientEndpoint } from './transport-process.js';

export interface EntryPoint {
  modulePath: string;
  execArgv: string[];
  /** A bundled entry that also comes as a CommonJS bundle, for a forked Node process; Electron's launchers run `modulePath`. */
  cached?: CachedFork;
}

/**
 * A host-side entry from TypeScript sources (tests run through tsx) or from the bundle: bundles live
 * together in dist/engine/, so a bundled caller finds `<name>.js` beside itself.
 */
export function hostEntry(name: string, sourcePath: string): EntryPoint {
  const here = fileURLToPath(import.meta.url);
  // tsx by absolute URL: a child whose working directory is a workspace could not resolve the bare name.
  if (here.endsWith('.ts')) return { modulePath: resolve(dirname(here), sourcePath), execArgv: ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href] };
  const bundled = resolve(dirname(here), `${name}.js`);
  if (!existsSync(bundled)) throw new Error(`${bundled} is missing; run \`npm run build\``);
  const cached = cachedFork(dirname(here), name);
  return { modulePath: bundled, execArgv: [], ...(cached && { cached }) };
}

/**
 * tsx's ESM registration API (its `register()` installs the TypeScript hooks in the calling thread), for
 * worker threads run from sources: `--import tsx` reaches only the main thread on Node 20.
 */
export function tsxApiUrl(): string {
  const pkgPath = createRequire(import.meta.url).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  const rel = pkg.exports['./esm/api']?.import?.default;
  if (rel === undefined) throw new Error('tsx has no ./esm/api export');
  return pathToFileURL(resolve(dirname(pkgPath), rel)).href;
}

export function exitReason(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code ?? 'unknown'}`;
}

/** Resolves when the child is gone (also when it never started). */
export function childExited(child: ChildProcess): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(exitReason(child.exitCode, child.signalCode));
  return new Promise((done) => {
    child.once('exit', (code, signal) => done(exitReason(code, signal)));
    child.once('error', (e) => child.pid === undefined && done(`could not start: ${e.message}`));
  });
}

export interface ForkHostOptions {
  workspace: string;
  /** 'inherit' shows the host's own log lines on this process's stderr (the default). */
  stdio?: 'inherit' | 'ignore';
  env?: NodeJS.ProcessEnv;
  /** The Node binary to run the host with (default: this process's). */
  execPath?: string;
  /** The host bundle, for callers not bundled beside it (Electron's main lives in out/). */
  hostScript?: string;
}

export function forkHost(opts: ForkHostOptions): HostLauncher {
  const entry = opts.hostScript !== undefined ? { modulePath: opts.hostScript, execArgv: [] } : hostEntry('host', 'main.ts');
  return ({ restartReason }): LaunchedHost => {
    const child = fork(entry.modulePath, ['--workspace', opts.workspace], {
      execArgv: entry.execArgv,
      ...(opts.execPath !== undefined && { execPath: opts.execPath }),
      stdio: ['ignore', opts.stdio ?? 'inherit', opts.stdio ?? 'inherit', 'ipc'],
      env: { ...process.env, ...opts.env, ...(restartReason !== undefined && { ASSAY_HOST_RESTART_REASON: restartReason }) },
    });
    return {
      endpoint: childClientEndpoint(child),
      exited: childExited(child),
      kill: () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGTERM')),
      ...(child.pid !== undefined && { pid: child.pid }),
    };
  };
}
