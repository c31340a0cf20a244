// Main's half of job launching in the packaged app: the host (a utility process) cannot start processes, so main forks each job runner as a utility process and gives host and job the two ends of one MessageChannelMain.
import type { ForkOptions, MessagePortMain, UtilityProcess } from 'electron';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { isLaunchMessage, JOB_PORT_MESSAGE, type HostToMain, type MainToHost } from '../workers/host/jobs/launch-protocol.js';

/** The parts of a utility process the relay uses (tests pass fakes). */
export type JobProcess = Pick<UtilityProcess, 'once' | 'postMessage' | 'kill' | 'stdout' | 'stderr'>;

export interface JobRelayOptions {
  /** The only script a job may run: the job runner bundle beside the host's. */
  runnerScript: string;
  fork: (modulePath: string, args: string[], opts: ForkOptions) => JobProcess;
  channel: () => { port1: MessagePortMain; port2: MessagePortMain };
  /** To the host process. */
  post: (message: MainToHost, transfer?: MessagePortMain[]) => void;
  /** After the host is gone its jobs are cancelled by their closed port; this kills any still running after it. */
  orphanGraceMs?: number;
  log?: (message: string) => void;
}

export interface JobRelay {
  /** Takes a message from the host when it is about jobs (true), else leaves it to the contract (false). */
  handle(message: unknown): boolean;
  /** The host process exited: its jobs have nobody to report to. */
  hostExited(): void;
}

export function jobRelay(opts: JobRelayOptions): JobRelay {
  const jobs = new Map<number, JobProcess>();
  let hostAlive = true;
  const post = (m: MainToHost, transfer?: MessagePortMain[]): void => {
    if (!hostAlive) return;
    try {
      opts.post(m, transfer);
    } catch (e) {
      opts.log?.(`cannot reach the engine host about job ${m.launchId}: ${(e as Error).message}`);
    }
  };

  const launch = (m: Extract<HostToMain, { type: 'assay.job.launch' }>): void => {
    const { launchId } = m;
    if (jobs.has(launchId)) return;
    // The host runs recipes: it may ask for a job, never for an arbitrary script.
    if (typeof m.modulePath !== 'string' || resolve(m.modulePath) !== resolve(opts.runnerScript)) {
      return post({ type: 'assay.job.exit', launchId, reason: `could not start: '${String(m.modulePath)}' is not the job runner` });
    }
    let child: JobProcess;
    try {
      child = opts.fork(opts.runnerScript, [], { env: m.env, cwd: m.cwd, stdio: 'pipe', serviceName: 'Assay job' });
    } catch (e) {
      return post({ type: 'assay.job.exit', launchId, reason: `could not start: ${(e as Error).message}` });
    }
    jobs.set(launchId, child);
    const { port1, port2 } = opts.channel();
    // Electron queues what the host posts on its end until the job has the other one.
    child.once('spawn', () => child.postMessage(JOB_PORT_MESSAGE, [port2]));
    post({ type: 'assay.job.port', launchId }, [port1]);
    // Exit is reported after the last line of both streams, so the host's log is complete when the job ends.
    const streams = [child.stdout, child.stderr].filter((s): s is NodeJS.ReadableStream => s !== null);
    const drained = streams.map(
      (input) =>
        new Promise<void>((done) => {
          const rl = createInterface({ input });
          rl.on('line', (line) => post({ type: 'assay.job.line', launchId, line }));
          rl.once('close', done);
        }),
    );
    child.once('exit', (code) => {
      const report = (): void => {
        if (jobs.get(launchId) !== child) return;
        jobs.delete(launchId);
        post({ type: 'assay.job.exit', launchId, reason: `exit code ${code}` });
      };
      void Promise.all(drained).then(report);
      // A stream a grandchild still holds open must not keep the job running in the host's eyes.
      setTimeout(report, 2000).unref();
    });
  };

  return {
    handle(message) {
      if (!isLaunchMessage(message)) return false;
      const m = message as HostToMain;
      if (m.type === 'assay.job.launch') launch(m);
      else if (m.type === 'assay.job.kill') jobs.get(m.launchId)?.kill();
      return true;
    },
    hostExited() {
      hostAlive = false;
      const orphans = [...jobs.values()];
      if (orphans.length === 0) return;
      setTimeout(() => {
        for (const c of orphans) if ([...jobs.values()].includes(c)) c.kill();
      }, opts.orphanGraceMs ?? 15_000).unref();
    },
  };
}
