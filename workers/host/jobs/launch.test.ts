// The host side of job launching: which launcher the manager picks, the utility launcher's and the runner channel's handling of main's messages (fake ports), and launch failures.
import { EventEmitter } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../../shared/contract/index.js';
import { ensureBuilt } from '../../engine/cli/run-cli.js';
import { REPO_ROOT } from '../../engine/testing.js';
import { scratchDir } from '../testing.js';
import { utilityHostEndpoint } from '../transport-utility.js';
import { runnerChannel } from './launch-channel.js';
import { forkLauncher } from './launch.js';
import { utilityJobLauncher } from './launch-utility.js';
import { defaultJobLauncher, JobManager } from './manager.js';
import type { RunnerMessage, RunnerRequest } from './protocol.js';

/** A MessagePortMain stand-in: records what is posted, delivers `{ data, ports }` events. */
class FakePort extends EventEmitter {
  posted: unknown[] = [];
  started = false;
  closed = false;
  postMessage(m: unknown): void {
    this.posted.push(structuredClone(m));
  }
  start(): void {
    this.started = true;
  }
  close(): void {
    this.closed = true;
  }
  deliver(data: unknown, ports: unknown[] = []): void {
    this.emit('message', { data, ports });
  }
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

afterEach(() => {
  delete (process as { parentPort?: unknown }).parentPort;
  delete (process.versions as { electron?: string }).electron;
});

describe('job launchers', () => {
  it('the manager forks Node outside a utility process; forking is refused inside Electron, with the reason', () => {
    expect(defaultJobLauncher()).toBe(forkLauncher);
    Object.defineProperty(process.versions, 'electron', { value: '41.7.1', configurable: true });
    expect(() => forkLauncher({ modulePath: '/nonexistent.js', execArgv: [] }, { env: {}, cwd: '/' })).toThrow(/cannot be forked inside Electron: they are launched by the main process/);
  });

  it("forks the built job runner's CommonJS bundle through V8's code cache, and the job runs", async () => {
    ensureBuilt();
    const dist = join(REPO_ROOT, 'dist/engine');
    const entry = { modulePath: join(dist, 'job-runner.js'), execArgv: [], cached: { loader: join(dist, 'cached-child.js'), bundle: join(dist, 'job-runner.cjs') } };
    const ws = scratchDir('assay-launch-');
    writeFileSync(join(ws, 'recipe.yaml'), 'streams: [oops\n');
    const child = forkLauncher(entry, { env: { ...process.env, ASSAY_CODE_CACHE: 'debug' }, cwd: ws });
    const got: RunnerMessage[] = [];
    const lines: string[] = [];
    child.onMessage((m) => got.push(m));
    child.onLine((l) => lines.push(l));
    child.send({ type: 'start', kind: 'mix', root: ws, configText: 'streams: [oops\n', configPath: 'recipe.yaml' });
    expect(await child.exited).toBe('exit code 0');
    // The runner ran (its answer: the recipe's YAML error) and said how it started.
    expect(got.at(-1)).toMatchObject({ type: 'error', error: { file: 'recipe.yaml' } });
    expect(lines.join('\n')).toMatch(/code cache (none|used|rejected): \S+job-runner\.cjs-/);
  });

  it('in a utility process the manager asks main over the parentPort, and no launch message reaches the contract endpoint', () => {
    const parent = new FakePort();
    Object.assign(process, { parentPort: parent });
    const contract: unknown[] = [];
    utilityHostEndpoint(parent as never).onMessage((m) => contract.push(m));
    const launch = defaultJobLauncher();
    expect(launch).not.toBe(forkLauncher);
    expect(defaultJobLauncher()).toBe(launch);
    launch({ modulePath: '/app/job-runner.js', execArgv: ['--ignored'] }, { env: { A: '1', UNSET: undefined }, cwd: '/ws' });
    expect(parent.posted).toEqual([{ type: 'assay.job.launch', launchId: 1, modulePath: '/app/job-runner.js', env: { A: '1' }, cwd: '/ws' }]);
    parent.deliver({ type: 'assay.job.line', launchId: 1, line: 'x' });
    parent.deliver({ type: 'request', id: 1, method: 'workspace.info', params: {} });
    expect(contract).toEqual([{ type: 'request', id: 1, method: 'workspace.info', params: {} }]);
  });

  it('queues requests until main hands over the port, relays lines, kills through main, and ends on the exit main reports', async () => {
    const parent = new FakePort();
    const launch = utilityJobLauncher(parent as never);
    const child = launch({ modulePath: '/app/job-runner.js', execArgv: [] }, { env: {}, cwd: '/ws' });
    const other = launch({ modulePath: '/app/job-runner.js', execArgv: [] }, { env: {}, cwd: '/ws' });
    const got: RunnerMessage[] = [];
    const lines: string[] = [];
    child.onMessage((m) => got.push(m));
    child.onLine((l) => lines.push(l));
    const start: RunnerRequest = { type: 'start', kind: 'index', root: '/ws', configText: '', configPath: '(index)' };
    child.send(start);
    const port = new FakePort();
    parent.deliver({ type: 'assay.job.port', launchId: 1 }, [port]);
    expect(port.started).toBe(true);
    expect(port.posted).toEqual([start]);
    child.send({ type: 'cancel' });
    expect(port.posted).toEqual([start, { type: 'cancel' }]);
    port.deliver({ type: 'log', line: 'from the job' });
    parent.deliver({ type: 'assay.job.line', launchId: 1, line: 'stdout line' });
    parent.deliver({ type: 'assay.job.line', launchId: 2, line: 'not mine' });
    expect(got).toEqual([{ type: 'log', line: 'from the job' }]);
    expect(lines).toEqual(['stdout line']);
    child.kill();
    expect(parent.posted.at(-1)).toEqual({ type: 'assay.job.kill', launchId: 1 });
    parent.deliver({ type: 'assay.job.exit', launchId: 1, reason: 'exit code 0' });
    expect(await child.exited).toBe('exit code 0');
    expect(port.closed).toBe(true);
    // Once gone, nothing more is sent or killed.
    const posted = parent.posted.length;
    child.send({ type: 'cancel' });
    child.kill();
    expect(port.posted).toHaveLength(2);
    expect(parent.posted).toHaveLength(posted);
    parent.deliver({ type: 'assay.job.exit', launchId: 2, reason: "could not start: 'x' is not the job runner" });
    expect(await other.exited).toBe("could not start: 'x' is not the job runner");
  });

  it("the runner's channel in a utility process: queued until the port arrives, the protocol over it, a closed port is the host gone", async () => {
    const parent = new FakePort();
    const channel = runnerChannel(Object.assign(Object.create(process) as NodeJS.Process, { parentPort: parent }));
    const requests: RunnerRequest[] = [];
    let gone = 0;
    channel.onMessage((m) => requests.push(m));
    channel.onDisconnect(() => gone++);
    void channel.send({ type: 'log', line: 'early' });
    // Only main's port message counts; anything else on the parentPort is ignored.
    parent.deliver({ type: 'assay.job.line', launchId: 1, line: 'x' }, [new FakePort()]);
    const port = new FakePort();
    parent.deliver({ type: 'assay.job.port' }, [port]);
    expect(port.started).toBe(true);
    expect(port.posted).toEqual([{ type: 'log', line: 'early' }]);
    await channel.send({ type: 'progress', report: { done: 1, total: 2, unit: 'files', etaSec: null } });
    expect(port.posted).toHaveLength(2);
    port.deliver({ type: 'cancel' });
    expect(requests).toEqual([{ type: 'cancel' }]);
    port.emit('close');
    expect(gone).toBe(1);
    await channel.send({ type: 'log', line: 'after' });
    expect(port.posted).toHaveLength(2);
  });

  it('a launcher that cannot start the job fails that job with the reason; the manager goes on', async () => {
    const root = scratchDir();
    const states: JobInfo[] = [];
    const manager = new JobManager({
      root,
      emit: (e, p) => void (e === 'job.state' && states.push(p as JobInfo)),
      indexChanged: (d) => d,
      launch: () => {
        throw new Error('no utility process available');
      },
    });
    const job = await manager.start({ kind: 'index' });
    expect(job.state).toBe('running');
    await tick();
    expect(states.at(-1)).toMatchObject({ jobId: job.jobId, state: 'failed', error: 'the job process ended unexpectedly (could not start: no utility process available)' });
    expect(manager.list()[0]).toMatchObject({ state: 'failed' });
    await manager.shutdown();
  });
});
