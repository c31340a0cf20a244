// Launches the engine host in an Electron utilityProcess: the parent side of that transport, for the supervisor, and the launcher of its jobs.
import { MessageChannelMain, utilityProcess } from 'electron';
import { dirname, join } from 'node:path';
import type { HostMessage, RequestEnvelope } from '../shared/contract/index.js';
import type { HostLauncher, LaunchedHost } from '../workers/host/supervisor.js';
import { Listeners } from '../workers/host/transport.js';
import { jobRelay } from './job-launcher.js';

export function utilityHost(hostScript: string, workspace: string): HostLauncher {
  return ({ restartReason }): LaunchedHost => {
    const child = utilityProcess.fork(hostScript, ['--workspace', workspace], {
      serviceName: 'Assay engine host',
      stdio: 'inherit',
      env: { ...process.env, ...(restartReason !== undefined && { ASSAY_HOST_RESTART_REASON: restartReason }) },
    });
    const listeners = new Listeners<HostMessage>();
    // A utility process cannot start utility processes, and (RunAsNode being off) cannot fork Node: main starts
    // each job the host asks for, beside the host bundle, and the two talk over a MessageChannelMain.
    const jobs = jobRelay({
      runnerScript: join(dirname(hostScript), 'job-runner.js'),
      fork: (modulePath, args, opts) => utilityProcess.fork(modulePath, args, opts),
      channel: () => new MessageChannelMain(),
      post: (m, transfer) => child.postMessage(m, transfer),
      log: (m) => console.error(`assay: ${m}`),
    });
    child.on('message', (m: HostMessage) => void (!jobs.handle(m) && listeners.emit(m)));
    let alive = true;
    // Requests wait for the process to exist; after that Electron queues them until the host listens.
    let queue: RequestEnvelope[] | null = [];
    child.once('spawn', () => {
      // A queued request that cannot be cloned fails alone; the rest go on (an exception here would reach Electron's main loop).
      for (const m of queue ?? []) {
        try {
          child.postMessage(m);
        } catch (e) {
          listeners.emit({ type: 'response', id: m.id, ok: false, error: { code: 'BAD_REQUEST', message: `${m.method}: the params cannot be sent to the engine host (${(e as Error).message})` } });
        }
      }
      queue = null;
    });
    const exited = new Promise<string>((done) => {
      child.once('exit', (code) => {
        alive = false;
        jobs.hostExited();
        done(`exit code ${code}`);
      });
    });
    return {
      endpoint: {
        send: (m: RequestEnvelope) => {
          if (queue) queue.push(m);
          else if (alive) child.postMessage(m);
        },
        onMessage: (l) => listeners.add(l),
        close: () => listeners.clear(),
      },
      exited,
      kill: () => void (alive && child.kill()),
    };
  };
}
