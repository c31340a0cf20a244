// Job launching in the packaged app, without an Electron binary: main's relay driven with fakes, then the whole chain (host launcher ↔ relay ↔ runner) on emulated utility processes, compared with fork.
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { EventEmitter } from 'node:events';
import { join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { ForkOptions, MessagePortMain } from 'electron';
import { describe, expect, it } from 'vitest';
import type { JobInfo } from '../shared/contract/index.js';
import { forkLauncher, type JobLauncher } from '../workers/host/jobs/launch.js';
import type { HostToMain, MainToHost } from '../workers/host/jobs/launch-protocol.js';
import { utilityJobLauncher } from '../workers/host/jobs/launch-utility.js';
import { JobManager } from '../workers/host/jobs/manager.js';
import { hostEntry, type EntryPoint } from '../workers/host/launch-process.js';
import { makeWorkspace, scratchDir } from '../workers/host/testing.js';
import { jobRelay, type JobProcess } from './job-launcher.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const FAKE_CHILD = resolve(here, 'job-launcher-fake-child.ts');
const RUNNER = hostEntry('job-runner', 'jobs/runner.ts');
const FIXTURE: EntryPoint = { modulePath: resolve(here, '../workers/host/jobs/launch-fixture-runner.ts'), execArgv: RUNNER.execArgv };

/** Stand-in for MessagePortMain: structured-cloned, queued until start(); once transferred into a fake utility process, carried over its IPC. */
class FakePort extends EventEmitter {
  peer!: FakePort;
  remote: ChildProcess | null = null;
  #queue: unknown[] = [];
  #started = false;
  #closed = false;
  postMessage(data: unknown): void {
    if (!this.#closed) this.peer.receive(structuredClone(data));
  }
  receive(data: unknown): void {
    if (this.remote) return void (this.remote.connected && this.remote.send({ k: 'port', data }));
    if (this.#started) setImmediate(() => this.emit('message', { data, ports: [] }));
    else this.#queue.push(data);
  }
  start(): void {
    this.#started = true;
    for (const data of this.#queue.splice(0)) setImmediate(() => this.emit('message', { data, ports: [] }));
  }
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.peer.remoteClosed();
  }
  remoteClosed(): void {
    if (!this.remote) this.emit('close');
    else if (this.remote.connected) this.remote.send({ k: 'port-close' });
  }
}

function fakeChannel(): { port1: FakePort; port2: FakePort } {
  const port1 = new FakePort();
  const port2 = new FakePort();
  port1.peer = port2;
  port2.peer = port1;
  return { port1, port2 };
}

type Wire = { k: 'parent'; data: unknown } | { k: 'port'; data: unknown } | { k: 'port-close' };

/** Stand-in for utilityProcess.fork: a Node child whose script sees `process.parentPort` (job-launcher-fake-child.ts). */
function fakeUtilityFork(modulePath: string, args: string[], opts: ForkOptions, exits: Promise<number>[] = []): JobProcess {
  const cp = fork(FAKE_CHILD, [modulePath, ...args], { execArgv: RUNNER.execArgv, env: opts.env as NodeJS.ProcessEnv, cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  const proc = new EventEmitter();
  let port: FakePort | null = null;
  cp.on('spawn', () => proc.emit('spawn'));
  cp.on('message', (m: Wire) => {
    if (m.k === 'port') port?.postMessage(m.data);
    else if (m.k === 'port-close') port?.close();
  });
  exits.push(
    new Promise((done) =>
      cp.on('exit', (code) => {
        // The process is gone: its end of the channel is disconnected, as Electron reports.
        if (port) port.peer.emit('close');
        proc.emit('exit', code ?? 1);
        done(code ?? 1);
      }),
    ),
  );
  return Object.assign(proc, {
    stdout: cp.stdout,
    stderr: cp.stderr,
    postMessage(data: unknown, transfer?: MessagePortMain[]) {
      const p = transfer?.[0] as unknown as FakePort | undefined;
      if (p) {
        p.remote = cp;
        port = p;
      }
      cp.send({ k: 'parent', data, port: p !== undefined });
    },
    kill: () => cp.kill('SIGKILL'),
  }) as unknown as JobProcess;
}

/** An emulated packaged app: the host's parentPort, main's relay and utility processes, all fakes except the job processes themselves. */
function emulatedElectron(runnerScript: string): { launch: JobLauncher; hostPorts: FakePort[]; exits: Promise<number>[]; hostDies: () => void } {
  const parent = new EventEmitter() as EventEmitter & { postMessage(m: unknown): void };
  const hostPorts: FakePort[] = [];
  const exits: Promise<number>[] = [];
  const relay = jobRelay({
    runnerScript,
    fork: (path, args, opts) => fakeUtilityFork(path, args, opts, exits),
    channel: () => {
      const c = fakeChannel();
      hostPorts.push(c.port1);
      return c as unknown as { port1: MessagePortMain; port2: MessagePortMain };
    },
    post: (m, transfer) => setImmediate(() => parent.emit('message', { data: structuredClone(m), ports: transfer ?? [] })),
    orphanGraceMs: 15_000,
  });
  parent.postMessage = (m) => setImmediate(() => relay.handle(structuredClone(m)));
  return {
    launch: utilityJobLauncher(parent as never),
    hostPorts,
    exits,
    // The host process is gone: main learns it, and its ends of every job channel close.
    hostDies: () => {
      relay.hostExited();
      for (const p of hostPorts) p.close();
    },
  };
}

interface Run {
  final: JobInfo;
  logs: string[];
  progress: number;
  indexUpdates: number;
}

/** One job on a JobManager with this launcher, until it ends; `during` may act on it while it runs. */
async function runJob(root: string, launch: JobLauncher, opts: { entry: EntryPoint; kind?: 'index' | 'tag'; configPath?: string; configText?: string; env?: Record<string, string>; graceMs?: number; during?: (m: JobManager, job: JobInfo, logs: string[]) => Promise<void> }): Promise<Run> {
  const logs: string[] = [];
  let progress = 0;
  let indexUpdates = 0;
  let finished: (j: JobInfo) => void = () => undefined;
  const ended = new Promise<JobInfo>((r) => (finished = r));
  const manager = new JobManager({
    root,
    runnerEntry: opts.entry,
    launch,
    cancelGraceMs: opts.graceMs ?? 10_000,
    jobEnv: () => ({ PATH: process.env.PATH ?? '', ...opts.env }),
    indexChanged: (docs) => docs,
    emit: (event, payload) => {
      if (event === 'job.log') logs.push((payload as { line: string }).line);
      if (event === 'job.progress') progress++;
      if (event === 'index.updated') indexUpdates++;
      if (event === 'job.state' && (payload as JobInfo).state !== 'running') finished(payload as JobInfo);
    },
  });
  const job = await manager.start({ kind: opts.kind ?? 'index', ...(opts.configPath !== undefined && { configPath: opts.configPath }), ...(opts.configText !== undefined && { configText: opts.configText }) });
  await opts.during?.(manager, job, logs);
  const final = await ended;
  await manager.shutdown();
  return { final, logs, progress, indexUpdates };
}

const until = async (test: () => boolean, ms = 30_000): Promise<void> => {
  const t0 = Date.now();
  while (!test()) {
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** What must not differ between launchers: the outcome, the log (any order: stdout, stderr and the channel race) and whether progress arrived. */
const outcome = (r: Run, root: string): unknown => ({
  state: r.final.state,
  error: r.final.error,
  summary: r.final.summary,
  outputs: r.final.outputs,
  logs: r.logs.map((l) => l.replaceAll(root, '<root>')).sort(),
  progress: r.progress > 0,
  indexUpdates: r.indexUpdates,
});

// ---------------------------------------------------------------------------------------------------------

interface FakeJob {
  proc: JobProcess;
  stdout: PassThrough;
  stderr: PassThrough;
  posted: { data: unknown; ports: unknown[] }[];
  killed: number;
  exit: (code: number) => void;
}

/** The relay alone, with a fake fork: no processes. */
function relayWithFakes(opts: { forkThrows?: boolean } = {}): { relay: ReturnType<typeof jobRelay>; toHost: { m: MainToHost; ports: unknown[] }[]; forks: { path: string; opts: ForkOptions }[]; jobs: FakeJob[] } {
  const toHost: { m: MainToHost; ports: unknown[] }[] = [];
  const forks: { path: string; opts: ForkOptions }[] = [];
  const jobs: FakeJob[] = [];
  const relay = jobRelay({
    runnerScript: '/app/dist/engine/job-runner.js',
    fork: (path, _args, o) => {
      if (opts.forkThrows) throw new Error('no such file');
      forks.push({ path, opts: o });
      const e = new EventEmitter();
      const stdout = new PassThrough();
      const stderr = new PassThrough();
      const job: FakeJob = {
        proc: Object.assign(e, { stdout, stderr, postMessage: (data: unknown, ports: unknown[] = []) => void job.posted.push({ data, ports }), kill: () => ((job.killed += 1), true) }) as unknown as JobProcess,
        stdout,
        stderr,
        posted: [],
        killed: 0,
        exit: (code) => {
          stdout.end();
          stderr.end();
          e.emit('exit', code);
        },
      };
      jobs.push(job);
      setImmediate(() => e.emit('spawn'));
      return job.proc;
    },
    channel: () => ({ port1: { name: 'port1' }, port2: { name: 'port2' } }) as unknown as { port1: MessagePortMain; port2: MessagePortMain },
    post: (m, ports = []) => void toHost.push({ m, ports }),
    orphanGraceMs: 50,
  });
  return { relay, toHost, forks, jobs };
}

const launchMsg = (launchId: number, modulePath = '/app/dist/engine/job-runner.js'): HostToMain => ({ type: 'assay.job.launch', launchId, modulePath, env: { A: '1' }, cwd: '/ws' });
const tick = (ms = 10): Promise<void> => new Promise((r) => setTimeout(r, ms));

describe('main relays job processes for the host (fakes)', () => {
  it('forks only its runner, hands one port to each side, relays every stdout/stderr line and then the exit; kills on request', async () => {
    const { relay, toHost, forks, jobs } = relayWithFakes();
    expect(relay.handle({ type: 'request', id: 1, method: 'workspace.info', params: {} })).toBe(false);
    expect(relay.handle(launchMsg(7))).toBe(true);
    expect(forks).toEqual([{ path: '/app/dist/engine/job-runner.js', opts: { env: { A: '1' }, cwd: '/ws', stdio: 'pipe', serviceName: 'Assay job' } }]);
    expect(toHost).toEqual([{ m: { type: 'assay.job.port', launchId: 7 }, ports: [{ name: 'port1' }] }]);
    await tick();
    const job = jobs[0]!;
    expect(job.posted).toEqual([{ data: { type: 'assay.job.port' }, ports: [{ name: 'port2' }] }]);
    job.stdout.write('out 1\nout 2\n');
    job.stderr.write('err 1\n');
    relay.handle({ type: 'assay.job.kill', launchId: 7 } satisfies HostToMain);
    expect(job.killed).toBe(1);
    job.stdout.write('last');
    job.exit(0);
    await tick();
    const after = toHost.slice(1).map((x) => x.m);
    expect(after.filter((m) => m.type === 'assay.job.line').map((m) => (m as { line: string }).line).sort()).toEqual(['err 1', 'last', 'out 1', 'out 2']);
    expect(after.at(-1)).toEqual({ type: 'assay.job.exit', launchId: 7, reason: 'exit code 0' });
    expect(after.filter((m) => m.type === 'assay.job.exit')).toHaveLength(1);
  });

  it('refuses any other script than the job runner, and reports a fork that fails, without starting anything', async () => {
    const a = relayWithFakes();
    a.relay.handle(launchMsg(1, '/tmp/evil.js'));
    a.relay.handle(launchMsg(2, '/app/dist/engine/../engine/host.js'));
    expect(a.forks).toEqual([]);
    expect(a.toHost.map((x) => x.m)).toEqual([
      { type: 'assay.job.exit', launchId: 1, reason: "could not start: '/tmp/evil.js' is not the job runner" },
      { type: 'assay.job.exit', launchId: 2, reason: "could not start: '/app/dist/engine/../engine/host.js' is not the job runner" },
    ]);
    const b = relayWithFakes({ forkThrows: true });
    b.relay.handle(launchMsg(3));
    expect(b.toHost.map((x) => x.m)).toEqual([{ type: 'assay.job.exit', launchId: 3, reason: 'could not start: no such file' }]);
  });

  it('after the host exits, kills the jobs still running once the grace is over, and posts nothing to the dead host', async () => {
    const { relay, toHost, jobs } = relayWithFakes();
    relay.handle(launchMsg(1));
    relay.handle(launchMsg(2));
    await tick();
    jobs[0]!.exit(0);
    await tick();
    const posted = toHost.length;
    relay.hostExited();
    jobs[1]!.stdout.write('nobody hears this\n');
    await tick(100);
    expect(jobs.map((j) => j.killed)).toEqual([0, 1]);
    expect(toHost).toHaveLength(posted);
  });
});

describe('the packaged app launches jobs through main (emulated utility processes)', () => {
  const cases: { name: string; env: Record<string, string>; during?: (m: JobManager, job: JobInfo, logs: string[]) => Promise<void>; graceMs?: number }[] = [
    { name: 'a finished job', env: { ASSAY_FIXTURE: 'finish' } },
    { name: 'a failed job (error with file:line)', env: { ASSAY_FIXTURE: 'fail' } },
    { name: 'a job process that dies without a report', env: { ASSAY_FIXTURE: 'crash' } },
    {
      name: 'a cancelled job',
      env: { ASSAY_FIXTURE: 'wait' },
      during: async (m, job, logs) => {
        await until(() => logs.some((l) => l.startsWith('started')));
        m.cancel(job.jobId);
      },
    },
    {
      name: 'a job that ignores its cancel (killed after the grace)',
      env: { ASSAY_FIXTURE: 'ignore-cancel' },
      graceMs: 300,
      during: async (m, job, logs) => {
        await until(() => logs.some((l) => l.startsWith('started')));
        m.cancel(job.jobId);
      },
    },
  ];

  it.each(cases)('$name: same state, error, log lines (stdout and stderr included) and progress as with fork', async ({ env, during, graceMs }) => {
    const root = scratchDir();
    const viaFork = await runJob(root, forkLauncher, { entry: FIXTURE, env, ...(during && { during }), ...(graceMs !== undefined && { graceMs }) });
    const electron = emulatedElectron(FIXTURE.modulePath);
    const viaMain = await runJob(root, electron.launch, { entry: FIXTURE, env, ...(during && { during }), ...(graceMs !== undefined && { graceMs }) });
    expect(outcome(viaMain, root)).toEqual(outcome(viaFork, root));
    // The fixture's own lines arrived both ways: the channel's log, stdout and stderr through main.
    expect(viaMain.logs).toEqual(expect.arrayContaining(['a line on stdout', 'a line on stderr', `started index in ${root} with ASSAY_FIXTURE=${env.ASSAY_FIXTURE}`]));
  });

  it('runs real tag jobs as with fork: outputs, re-index, progress; a cancel stops the engine and publishes nothing', { timeout: 120_000 }, async () => {
    const forkRoot = makeWorkspace(scratchDir(), { files: 2 });
    const mainRoot = makeWorkspace(scratchDir(), { files: 2 });
    const viaFork = await runJob(forkRoot, forkLauncher, { entry: RUNNER, kind: 'tag', configPath: 'configs/tag.yaml' });
    const viaMain = await runJob(mainRoot, emulatedElectron(RUNNER.modulePath).launch, { entry: RUNNER, kind: 'tag', configPath: 'configs/tag.yaml' });
    expect(viaMain.final).toMatchObject({ state: 'done', outputs: ['attributes/lengths'] });
    expect(viaMain.final.summary).toMatch(/tagged 2 file\(s\), 80 docs/);
    expect({ ...(outcome(viaMain, mainRoot) as object), summary: undefined }).toEqual({ ...(outcome(viaFork, forkRoot) as object), summary: undefined });
    expect(viaMain.indexUpdates).toBe(1);
    expect(readdirSync(join(mainRoot, 'attributes/lengths')).filter((f) => f.endsWith('.gz')).sort()).toEqual(['part-0.jsonl.gz', 'part-1.jsonl.gz']);

    const big = makeWorkspace(scratchDir(), { files: 6, docs: 400, words: 400 });
    const cancelled = await runJob(big, emulatedElectron(RUNNER.modulePath).launch, {
      entry: RUNNER,
      kind: 'tag',
      configText: 'documents: [documents/*.jsonl.gz]\ntaggers: [gopher_v1]\nexperiment: g\n',
      during: async (m, job) => void m.cancel(job.jobId),
    });
    expect(cancelled.final.state).toBe('cancelled');
    // Through the engine's AbortSignal over the port, not a kill after the grace.
    expect(cancelled.final.error).toMatch(/cancel/i);
    expect(cancelled.final.error).not.toMatch(/unexpectedly/);
    const outs = existsSync(join(big, 'attributes/g')) ? readdirSync(join(big, 'attributes/g')).filter((f) => f.endsWith('.gz')) : [];
    expect(outs).toEqual([]);
  });

  it('a job whose host died sees its port close, stops its engine and exits by itself', { timeout: 60_000 }, async () => {
    // Files large enough that the run is still going when the host dies (gopher_v1 in C tags 400 such documents in
    // well under a tenth of a second, so a first file could be done by the first progress report).
    const root = makeWorkspace(scratchDir(), { files: 6, docs: 1500, words: 400 });
    const electron = emulatedElectron(RUNNER.modulePath);
    let progress = 0;
    const manager = new JobManager({ root, runnerEntry: RUNNER, launch: electron.launch, jobEnv: () => ({ PATH: process.env.PATH ?? '' }), indexChanged: (d) => d, emit: (e) => void (e === 'job.progress' && progress++) });
    await manager.start({ kind: 'tag', configText: 'documents: [documents/*.jsonl.gz]\ntaggers: [gopher_v1]\nexperiment: g\n' });
    await until(() => progress > 0);
    const t0 = Date.now();
    electron.hostDies();
    expect(await electron.exits[0]).toBe(0);
    // Stopped by its engine's AbortSignal, well before the runner's own 10 s deadline or main's 15 s kill.
    expect(Date.now() - t0).toBeLessThan(8000);
    // A file finished before the host died stays (a complete output, as the CLI keeps it for a rerun to skip); the
    // run itself stopped: not every file was tagged, and nothing half-written is left.
    const outs = existsSync(join(root, 'attributes/g')) ? readdirSync(join(root, 'attributes/g')) : [];
    expect(outs.filter((f) => f.endsWith('.gz')).length).toBeLessThan(6);
    expect(outs.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
