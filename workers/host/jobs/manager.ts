// Jobs (DESIGN §5): each runs in its own process through the engine library; progress, logs and states become contract events; history persists.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { ErrorPayload, JobCheck, JobInfo, JobStart, JobState } from '../../../shared/contract/index.js';
import { writeFileAtomic } from '../../engine/io/index.js';
import type { EmitEvent } from '../dispatch.js';
import { HostError, toErrorPayload } from '../errors.js';
import { hostEntry, type EntryPoint } from '../launch-process.js';
import { resolveInside } from '../paths.js';
import { parentPortOf } from '../transport-utility.js';
import { RunHistory } from './history.js';
import { forkLauncher, type JobChild, type JobLauncher } from './launch.js';
import { utilityJobLauncher } from './launch-utility.js';
import { ProgressMeter } from './meter.js';
import { refuseOverlap } from './conflicts.js';
import { checkPlanPaths, INLINE_CONFIG, INLINE_CONFIG_DIR, planJob } from './plan.js';
import type { PlannedWrite } from './plan-paths.js';
import type { RunnerMessage, RunnerRequest } from './protocol.js';
import { slurmExecutor, type SlurmExecutor } from './slurm-accept.js';
import { systemEnv } from '../app-env.js';

export interface JobManagerOptions {
  root: string;
  emit: EmitEvent;
  /** Called when a job changed the index; reloads the preview engine and returns its document count. */
  indexChanged: (docs: number) => Promise<number> | number;
  /** Why jobs still marked running in the history ended (given by the supervisor after a crash). */
  restartReason?: string;
  /** How long a cancelled job may take to clean up before it is killed. */
  cancelGraceMs?: number;
  runnerEntry?: EntryPoint;
  /** The environment a job's config may interpolate and its process runs with (the workspace's allowed variables); default process.env. */
  jobEnv?: () => Record<string, string>;
  /** Starts job processes; by default through main in an Electron utility process, else `fork` (`defaultJobLauncher`). */
  launch?: JobLauncher;
}

let utilityLauncher: JobLauncher | null = null;

/** In a utility process (the packaged app's host) only main can start processes; elsewhere the host forks Node. */
export function defaultJobLauncher(): JobLauncher {
  const port = parentPortOf();
  if (!port) return forkLauncher;
  // One launcher per process: it owns the launch messages on the parentPort.
  return (utilityLauncher ??= utilityJobLauncher(port));
}

interface Live {
  info: JobInfo;
  /** Where the job writes: no other job may write there while it runs. */
  writes: readonly PlannedWrite[];
  child: JobChild;
  meter: ProgressMeter;
  cancelRequested: boolean;
  /** The job process reported its outcome (it exits right after). */
  reported: boolean;
  settled: boolean;
  logLines: number;
}

const MAX_LOG_LINES = 5000;

function newJobId(kind: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `${kind}-${stamp}-${randomBytes(3).toString('hex')}`;
}

export class JobManager {
  readonly #jobs = new Map<string, JobInfo>();
  readonly #live = new Map<string, Live>();
  readonly #history: RunHistory;

  constructor(private readonly opts: JobManagerOptions) {
    this.#history = new RunHistory(opts.root);
    const reason = opts.restartReason ?? 'the engine host stopped while this job was running';
    for (const job of this.#history.reconcile(reason)) this.#jobs.set(job.jobId, job);
  }

  /** Newest first; a running job carries its latest progress. */
  list(): JobInfo[] {
    return [...this.#jobs.values()].map((j) => this.#live.get(j.jobId)?.info ?? j).reverse();
  }

  /** What `start` would refuse, without starting or writing anything: the app checks before it saves a recipe to run. */
  async check(req: JobStart): Promise<JobCheck> {
    try {
      const { writes } = await this.#accept(req, newJobId(req.kind));
      this.#refuseOverlap(writes);
      return { ok: true };
    } catch (e) {
      return { ok: false, error: toErrorPayload(e, this.opts.root) };
    }
  }

  /** Reads, parses and confines a job's config; throws what the app must show. */
  async #accept(req: JobStart, jobId: string): Promise<{ text: string; path: string | undefined; executor: SlurmExecutor | undefined; writes: PlannedWrite[] }> {
    const { text, path } = await this.#config(req, jobId);
    const executor = slurmExecutor(this.opts.root, req, text, path);
    // Inline text is named by its parameter in errors: its file under .assay/runs/ exists only once accepted.
    const name = req.configPath !== undefined ? req.configPath : req.configText !== undefined ? INLINE_CONFIG : '(index)';
    const plan = planJob(req.kind, text, name, this.opts.jobEnv?.());
    const writes = await checkPlanPaths(plan, this.opts.root);
    return { text, path, executor, writes };
  }

  /** Synchronous, right before a job is recorded: two starts cannot both pass it. A job that reported its end (its process exits right after) writes nothing more. */
  #refuseOverlap(writes: readonly PlannedWrite[]): void {
    const running = [...this.#live.values()].filter((l) => !l.reported && !l.settled);
    refuseOverlap(this.opts.root, writes, running.map((l) => ({ jobId: l.info.jobId, kind: l.info.kind, writes: l.writes })));
  }

  async start(req: JobStart): Promise<JobInfo> {
    const jobId = newJobId(req.kind);
    const { text, path, executor, writes } = await this.#accept(req, jobId);
    this.#refuseOverlap(writes);
    if (req.configPath === undefined && path !== undefined) await writeFileAtomic(resolveInside(this.opts.root, path), text);
    // Again after that write: another start may have gone through meanwhile.
    this.#refuseOverlap(writes);
    const info: JobInfo = { jobId, kind: req.kind, state: 'running', startedAt: new Date().toISOString(), ...(path !== undefined && { config: path }), outputs: [] };
    this.#record(info);
    this.#spawn(info, { type: 'start', kind: req.kind, root: this.opts.root, configText: text, configPath: path ?? '(index)', ...(executor && { executor }) }, writes);
    return info;
  }

  cancel(jobId: string): JobInfo {
    const live = this.#live.get(jobId);
    if (!live) {
      const job = this.#jobs.get(jobId);
      if (!job) throw new HostError('NOT_FOUND', `no job '${jobId}'`, 'jobId');
      return job;
    }
    if (!live.cancelRequested) {
      live.cancelRequested = true;
      this.#log(live, 'cancelling…');
      live.child.send({ type: 'cancel' } satisfies RunnerRequest);
      const timer = setTimeout(() => live.child.kill(), this.opts.cancelGraceMs ?? 15_000);
      timer.unref();
      void live.child.exited.then(() => clearTimeout(timer));
    }
    return live.info;
  }

  /** Cancels every running job and waits for its process to end (host shutdown). */
  async shutdown(): Promise<void> {
    const lives = [...this.#live.values()];
    for (const l of lives) this.cancel(l.info.jobId);
    await Promise.all(lives.map((l) => l.child.exited));
  }

  /** The config text and its workspace-relative path; inline text is kept under .assay/runs/ (once accepted) so the history shows what ran. */
  async #config(req: JobStart, jobId: string): Promise<{ text: string; path: string | undefined }> {
    const { root } = this.opts;
    if (req.configPath !== undefined) {
      const abs = resolveInside(root, req.configPath, 'configPath');
      const text = await readFile(abs, 'utf8').catch((e: NodeJS.ErrnoException) => {
        throw new HostError(e.code === 'ENOENT' ? 'NOT_FOUND' : 'BAD_REQUEST', `configPath: cannot read '${req.configPath}': ${e.message}`, 'configPath');
      });
      return { text, path: relative(root, abs) };
    }
    if (req.configText !== undefined) {
      return { text: req.configText, path: join(INLINE_CONFIG_DIR, `${jobId}.yaml`) };
    }
    return { text: '', path: undefined };
  }

  #record(info: JobInfo): void {
    this.#jobs.set(info.jobId, info);
    this.#history.append(info);
    this.opts.emit('job.state', info);
  }

  #log(live: Live, line: string): void {
    if (++live.logLines > MAX_LOG_LINES) {
      if (live.logLines === MAX_LOG_LINES + 1) this.opts.emit('job.log', { jobId: live.info.jobId, line: `… further log lines are not shown (limit ${MAX_LOG_LINES})` });
      return;
    }
    this.opts.emit('job.log', { jobId: live.info.jobId, line });
  }

  #spawn(info: JobInfo, start: RunnerRequest, writes: readonly PlannedWrite[]): void {
    const entry = this.opts.runnerEntry ?? hostEntry('job-runner', 'jobs/runner.ts');
    // The job re-reads its config with its own environment: only the allowed variables, so both agree.
    const allowed = this.opts.jobEnv?.() ?? process.env;
    // A Slurm job runs sbatch/squeue/scancel (PATH, SLURM_CONF) and its tasks inherit this environment (sbatch exports it).
    const env = start.type === 'start' && start.executor ? { ...systemEnv(process.env), ...allowed } : allowed;
    const live: Live = { info, writes, child: null as unknown as JobChild, meter: new ProgressMeter(info.jobId), cancelRequested: false, reported: false, settled: false, logLines: 0 };
    const ended = (reason: string): void => {
      this.#live.delete(info.jobId);
      if (!live.reported) this.#finish(live, live.cancelRequested ? 'cancelled' : 'failed', { error: live.cancelRequested ? 'cancelled' : `the job process ended unexpectedly (${reason})` });
    };
    try {
      live.child = (this.opts.launch ?? defaultJobLauncher())(entry, { env, cwd: this.opts.root });
    } catch (e) {
      return ended(`could not start: ${(e as Error).message}`);
    }
    this.#live.set(info.jobId, live);
    live.child.onLine((l) => this.#log(live, l));
    live.child.onMessage((m) => void this.#onMessage(live, m));
    void live.child.exited.then(ended);
    live.child.send(start);
  }

  async #onMessage(live: Live, m: RunnerMessage): Promise<void> {
    if (live.reported) return;
    if (m.type === 'progress') {
      const p = live.meter.update(m.report);
      live.info = { ...live.info, progress: live.meter.latest };
      if (p) this.opts.emit('job.progress', p);
    } else if (m.type === 'log') this.#log(live, m.line);
    else if (m.type === 'tasks') {
      const first = live.info.slurm === undefined;
      live.info = { ...live.info, slurm: m.slurm };
      // Recorded once submitted: should this host stop, the history still names the array and its logging dir.
      if (first) this.#history.append(live.info);
      this.opts.emit('job.tasks', { jobId: live.info.jobId, slurm: m.slurm });
    }
    else if (m.type === 'error') {
      live.reported = true;
      this.#finish(live, m.error.code === 'CANCELLED' ? 'cancelled' : 'failed', { error: describe(m.error) });
    } else if (m.type === 'done') {
      live.reported = true;
      if (m.indexedDocs !== undefined) {
        try {
          const docs = await this.opts.indexChanged(m.indexedDocs);
          this.opts.emit('index.updated', { docs });
        } catch (e) {
          this.#log(live, `the index was rebuilt but could not be reloaded: ${(e as Error).message}`);
        }
      }
      this.#finish(live, 'done', { summary: m.summary, outputs: m.outputs });
    }
  }

  #finish(live: Live, state: Exclude<JobState, 'running'>, fields: Partial<JobInfo>): void {
    if (live.settled) return;
    const last = live.meter.flush();
    if (last) this.opts.emit('job.progress', last);
    const info: JobInfo = { ...live.info, ...fields, state, endedAt: new Date().toISOString(), ...(live.meter.latest && { progress: live.meter.latest }) };
    live.info = info;
    this.#record(info);
    live.settled = true;
  }
}

/** An engine error as one line of the run history, located like a compiler message. */
function describe(e: ErrorPayload): string {
  const where = e.file !== undefined && !e.message.startsWith(e.file) ? `${e.file}${e.line !== undefined ? `:${e.line}` : ''}: ` : '';
  return `${where}${e.message}`;
}
