// Supervision over the child_process transport: a killed host is restarted, its running job ends as failed with the reason.
import { afterEach, expect, it } from 'vitest';
import type { JobInfo } from '../../shared/contract/index.js';
import { scratchDir } from '../engine/testing.js';
import { forkHost } from './launch-process.js';
import { HostSupervisor } from './supervisor.js';
import { makeWorkspace } from './testing.js';

let supervisor: HostSupervisor | undefined;
afterEach(async () => {
  await supervisor?.close();
  supervisor = undefined;
});

it('restarts a host that was killed and fails the job it was running, in events and in the history', async () => {
  const dir = makeWorkspace(scratchDir(), { files: 4, docs: 400, words: 400 });
  const pids: number[] = [];
  const launch = forkHost({ workspace: dir, stdio: 'ignore' });
  supervisor = new HostSupervisor((o) => {
    const launched = launch(o);
    pids.push(launched.pid ?? -1);
    return launched;
  });
  const states: JobInfo[] = [];
  supervisor.on('job.state', (j) => states.push(j));
  const restarted = new Promise<string>((resolve) => supervisor?.onRestart(resolve));

  expect((await supervisor.invoke('workspace.info', {})).recipes).toEqual(['recipes/short.yaml']);
  const job = await supervisor.invoke('jobs.start', { kind: 'tag', configText: 'documents: [documents/*.jsonl.gz]\ntaggers: [gopher_v1]\nexperiment: slow\n' });
  expect(job.state).toBe('running');
  process.kill(pids[0]!, 'SIGKILL');

  expect(await restarted).toBe('killed by SIGKILL');
  const failed = states.find((j) => j.jobId === job.jobId && j.state === 'failed');
  expect(failed?.error).toMatch(/engine host process stopped while this job was running \(killed by SIGKILL\)/);
  // The new host answers, and its history agrees.
  expect(pids).toHaveLength(2);
  const [listed] = await supervisor.invoke('jobs.list', {});
  expect(listed).toMatchObject({ jobId: job.jobId, state: 'failed' });
  expect(listed?.error).toMatch(/SIGKILL/);
});
