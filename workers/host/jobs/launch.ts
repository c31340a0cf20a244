// How the job manager starts a job process: a small child-like interface, with the Node `fork` launcher (browser mode, development, tests).
import { fork } from 'node:child_process';
import { createInterface } from 'node:readline';
import { forkTarget } from '../../engine/code-cache/fork.js';
import { childExited, type EntryPoint } from '../launch-process.js';
import type { RunnerMessage, RunnerRequest } from './protocol.js';

export interface LaunchOptions {
  /** The job's whole environment (the workspace's allowed variables). */
  env: Record<string, string | undefined>;
  /** The workspace: Dolma resolves a config's relative paths against the working directory. */
  cwd: string;
}

/** A running job process as the manager sees it, whoever started it. */
export interface JobChild {
  /** Dropped once the channel is gone (the process is ending). */
  send(message: RunnerRequest): void;
  onMessage(listener: (message: RunnerMessage) => void): void;
  /** Each line the process writes to stdout or stderr. */
  onLine(listener: (line: string) => void): void;
  /** Ends the process now (a cancelled job that ignored its cancel). */
  kill(): void;
  /** Resolves with why the process ended ("exit code 0", "killed by SIGKILL", "could not start: …"). */
  readonly exited: Promise<string>;
}

export type JobLauncher = (entry: EntryPoint, opts: LaunchOptions) => JobChild;

/**
 * Forks the job runner as a Node process. Only where `execPath` is Node: inside Electron it would be the app
 * binary, which (the RunAsNode fuse being off) starts the app rather than Node; there main launches jobs.
 */
export const forkLauncher: JobLauncher = (entry, opts) => {
  if (process.versions.electron !== undefined) throw new Error('jobs cannot be forked inside Electron: they are launched by the main process (launchUtilityJobs)');
  // The job runner's own bundle through V8's code cache where it is built: it loads in ≈ 0.4 s instead of ≈ 0.6.
  const [modulePath, args] = forkTarget(entry);
  const child = fork(modulePath, args, { execArgv: entry.execArgv, env: opts.env, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  return {
    send: (m) => void (child.connected && child.send(m)),
    onMessage: (l) => void child.on('message', (m: RunnerMessage) => l(m)),
    onLine: (l) => {
      for (const stream of [child.stdout, child.stderr]) if (stream) createInterface({ input: stream }).on('line', l);
    },
    kill: () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL')),
    exited: childExited(child),
  };
};
