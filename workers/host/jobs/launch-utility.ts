// The job launcher of a host running as an Electron utility process: main starts each job runner (a utility process can start none) and hands both sides a MessagePort.
import type { MessagePortMain, ParentPort } from 'electron';
import type { EntryPoint } from '../launch-process.js';
import { isLaunchMessage, type HostToMain } from './launch-protocol.js';
import type { JobChild, JobLauncher, LaunchOptions } from './launch.js';
import type { RunnerMessage, RunnerRequest } from './protocol.js';

interface Pending {
  port: MessagePortMain | null;
  /** Requests made before the port arrived, sent once it does. */
  queue: RunnerRequest[];
  messages: ((m: RunnerMessage) => void)[];
  lines: ((l: string) => void)[];
  done: (reason: string) => void;
}

/** The parts of `process.parentPort` this uses (tests pass fakes). */
export type LaunchPort = Pick<ParentPort, 'on' | 'postMessage'>;

/**
 * Jobs through main, over the host's parentPort: `assay.job.launch` asks main to fork the runner; main answers
 * with `assay.job.port` (the runner protocol then runs directly between this process and the job), relays the
 * job's stdout/stderr lines and, after the last one, `assay.job.exit`.
 */
export function utilityJobLauncher(parent: LaunchPort): JobLauncher {
  const jobs = new Map<number, Pending>();
  let nextId = 1;
  const post = (m: HostToMain): void => parent.postMessage(m);
  parent.on('message', (e) => {
    const m: unknown = e.data;
    if (!isLaunchMessage(m) || !('launchId' in m)) return;
    const job = jobs.get(m.launchId);
    if (!job) return;
    if (m.type === 'assay.job.port') {
      const port = e.ports[0];
      if (!port || job.port) return;
      job.port = port;
      port.on('message', (ev) => {
        for (const l of job.messages) l(ev.data as RunnerMessage);
      });
      port.start();
      for (const q of job.queue.splice(0)) port.postMessage(q);
    } else if (m.type === 'assay.job.line') {
      for (const l of job.lines) l(m.line);
    } else if (m.type === 'assay.job.exit') {
      jobs.delete(m.launchId);
      job.port?.close();
      job.port = null;
      job.done(m.reason);
    }
  });

  return (entry: EntryPoint, opts: LaunchOptions): JobChild => {
    const launchId = nextId++;
    let done!: (reason: string) => void;
    const exited = new Promise<string>((resolve) => (done = resolve));
    const job: Pending = { port: null, queue: [], messages: [], lines: [], done };
    jobs.set(launchId, job);
    const env = Object.fromEntries(Object.entries(opts.env).filter((kv): kv is [string, string] => kv[1] !== undefined));
    // Main forks its own copy of the runner bundle (it refuses any other script), without execArgv.
    post({ type: 'assay.job.launch', launchId, modulePath: entry.modulePath, env, cwd: opts.cwd });
    return {
      send: (m) => {
        if (!jobs.has(launchId)) return;
        if (job.port) job.port.postMessage(m);
        else job.queue.push(m);
      },
      onMessage: (l) => void job.messages.push(l),
      onLine: (l) => void job.lines.push(l),
      kill: () => void (jobs.has(launchId) && post({ type: 'assay.job.kill', launchId })),
      exited,
    };
  };
}
