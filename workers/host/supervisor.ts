// Keeps an engine host running: restarts it when its process dies, fails the calls and jobs it took down, and stops after a crash loop.
import type { ErrorPayload, JobInfo } from '../../shared/contract/index.js';
import { HostApiBase, HostClient, type CallOutcome } from './client.js';
import { Listeners, type ClientEndpoint } from './transport.js';

export interface LaunchedHost {
  endpoint: ClientEndpoint;
  /** Settles once, when the process has gone, with a human-readable reason ("exit code 1", "killed by SIGKILL"). */
  exited: Promise<string>;
  kill(): void;
  pid?: number;
}

/** Starts a host process; `restartReason` tells a restarted host why its predecessor's running jobs ended. */
export type HostLauncher = (opts: { restartReason?: string }) => LaunchedHost;

export interface SupervisorOptions {
  /** More crashes than this within `windowMs` stop the restarts (default 5 in 60 s). */
  maxCrashes?: number;
  windowMs?: number;
  log?: (message: string) => void;
}

export class HostSupervisor extends HostApiBase {
  #launched!: LaunchedHost;
  #client!: HostClient;
  readonly #running = new Map<string, JobInfo>();
  readonly #crashes: number[] = [];
  readonly #restarted = new Listeners<string>();
  #closing = false;
  #dead: ErrorPayload | null = null;

  constructor(
    private readonly launch: HostLauncher,
    private readonly opts: SupervisorOptions = {},
  ) {
    super();
    this.#start();
  }

  /** Called with the crash reason after each restart. */
  onRestart(listener: (reason: string) => void): () => void {
    return this.#restarted.add(listener);
  }

  #start(restartReason?: string): void {
    const launched = this.launch(restartReason === undefined ? {} : { restartReason });
    const client = new HostClient(launched.endpoint);
    this.#launched = launched;
    this.#client = client;
    client.onEvent((e) => {
      if (e.event === 'job.state') this.#track(e.payload as JobInfo);
      this.events.emit(e);
    });
    void launched.exited.then((reason) => this.#onExit(launched, client, reason));
  }

  #track(job: JobInfo): void {
    if (job.state === 'running') this.#running.set(job.jobId, job);
    else this.#running.delete(job.jobId);
  }

  #onExit(launched: LaunchedHost, client: HostClient, reason: string): void {
    if (launched !== this.#launched) return;
    client.fail({ code: 'INTERNAL', message: `the engine host stopped (${reason})${this.#closing ? '' : '; it is being restarted'}` });
    void client.close();
    if (this.#closing) return;
    this.opts.log?.(`engine host stopped (${reason}); restarting`);
    const jobReason = `the engine host process stopped while this job was running (${reason})`;
    const endedAt = new Date().toISOString();
    for (const job of this.#running.values()) this.events.emit({ type: 'event', event: 'job.state', payload: { ...job, state: 'failed', endedAt, error: jobReason } });
    this.#running.clear();
    const now = Date.now();
    this.#crashes.push(now);
    while ((this.#crashes[0] ?? now) < now - (this.opts.windowMs ?? 60_000)) this.#crashes.shift();
    if (this.#crashes.length > (this.opts.maxCrashes ?? 5)) {
      this.#dead = { code: 'INTERNAL', message: `the engine host crashed ${this.#crashes.length} times in a row (last: ${reason}); not restarting it` };
      this.opts.log?.(this.#dead.message);
      return;
    }
    this.#start(jobReason);
    this.#restarted.emit(reason);
  }

  async call(method: string, params: unknown): Promise<CallOutcome> {
    if (this.#dead) return { ok: false, error: this.#dead };
    const r = await this.#client.call(method, params);
    if (r.ok && method === 'jobs.start') this.#track(r.result as JobInfo);
    return r;
  }

  async close(): Promise<void> {
    this.#closing = true;
    this.#dead ??= { code: 'INTERNAL', message: 'the engine host was shut down' };
    const { exited } = this.#launched;
    this.#launched.kill();
    await exited;
  }
}
