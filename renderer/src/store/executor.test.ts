// Executor slice: the workspace's choice is read and saved through the host; starts carry the Slurm executor only when chosen and only for kinds Slurm runs.
import { describe, expect, it } from 'vitest';
import type { ExecutorSettings, JobInfo, JobKind, JobStart, SlurmRun } from '../../../shared/contract/index.js';
import { settle } from '../testing/fakeApi.js';
import { harness } from '../testing/harness.js';

const job = (jobId: string, over: Partial<JobInfo> = {}): JobInfo => ({ jobId, kind: 'mix', state: 'running', startedAt: '2026-12-02T10:00:00Z', outputs: [], ...over });

function setup(saved: ExecutorSettings = { type: 'local', slurm: { cpus_per_task: 1, sbatch_args: [] } }) {
  let disk = saved;
  const h = harness({
    handlers: {
      'executor.get': () => disk,
      'executor.set': (s) => (disk = s as ExecutorSettings),
      'jobs.start': (s: JobStart) => job('j1', { kind: s.kind }),
      'jobs.check': (s) => (s.executor?.logging_dir === '/elsewhere' ? { ok: false, error: { code: 'FORBIDDEN', message: 'executor.logging_dir: /elsewhere is outside the workspace', field: 'executor.logging_dir' } } : { ok: true }),
    },
  });
  return { ...h, disk: () => disk };
}

const view = (states: SlurmRun['tasks'][number]['state'][]): SlurmRun => ({
  loggingDir: '.assay/slurm/mix-abc',
  jobIds: ['41', '42'],
  tasks: states.map((state, i) => ({ task: i === states.length - 1 ? 'final' : i, state, inputCount: 1 })),
  counts: { done: 0, running: 0, pending: 0, failed: 0, cancelled: 0, 'not submitted': 0 },
  finished: false,
  failed: false,
});

describe('executor slice', () => {
  it('reads the workspace choice; a local one adds nothing to a start', async () => {
    const { store, fake } = setup();
    await store.getState().loadExecutor();
    expect(store.getState().executor).toMatchObject({ loaded: true, settings: { type: 'local' } });
    await store.getState().startJob({ kind: 'mix', configPath: 'configs/demo.yaml' });
    expect(fake.callsOf('jobs.start')).toEqual([{ kind: 'mix', configPath: 'configs/demo.yaml' }]);
  });

  it('saves changes once typing pauses, and starts Slurm-capable kinds on Slurm with the options; index stays local', async () => {
    const { store, fake, disk } = setup();
    await store.getState().loadExecutor();
    const s = store.getState();
    s.setExecutorType('slurm');
    s.setSlurmOption('tasks', 2);
    s.setSlurmOption('partition', 'c');
    s.setSlurmOption('partition', 'cpu');
    s.setSlurmOption('mem', '4G');
    s.setSlurmOption('mem', undefined);
    expect(fake.callsOf('executor.set')).toEqual([]);
    await new Promise((r) => setTimeout(r, 500));
    expect(fake.callsOf('executor.set')).toHaveLength(1);
    expect(disk()).toEqual({ type: 'slurm', slurm: { cpus_per_task: 1, sbatch_args: [], tasks: 2, partition: 'cpu' } });
    await store.getState().startJob({ kind: 'tag', configPath: 'configs/tag.yaml' });
    await store.getState().startJob({ kind: 'index' });
    // The Sources dialog's extraction and import follow the same choice (the dialog says where they run).
    await store.getState().startJob({ kind: 'warc', configText: '{}' });
    const slurm = { type: 'slurm', cpus_per_task: 1, sbatch_args: [], tasks: 2, partition: 'cpu' };
    expect(fake.callsOf('jobs.start')).toEqual([
      { kind: 'tag', configPath: 'configs/tag.yaml', executor: slurm },
      { kind: 'index' },
      { kind: 'warc', configText: '{}', executor: slurm },
    ]);
    expect(['warc', 'import', 'decon', 'index', 'preview'].map((k) => store.getState().executorFor(k as JobKind) !== undefined)).toEqual([true, true, true, false, false]);
  });

  it('a saved Slurm choice comes back for the workspace', async () => {
    const { store } = setup({ type: 'slurm', slurm: { tasks: 8, cpus_per_task: 2, sbatch_args: [], logging_dir: 'runs/x' } });
    await store.getState().loadExecutor();
    expect(store.getState().executorFor('mix')).toEqual({ type: 'slurm', tasks: 8, cpus_per_task: 2, sbatch_args: [], logging_dir: 'runs/x' });
    expect(store.getState().executorFor('index')).toBeUndefined();
  });

  it('job.tasks updates the job it names and ignores one it does not hold', async () => {
    const { store } = setup();
    await store.getState().startJob({ kind: 'mix', configPath: 'configs/demo.yaml' });
    store.getState().onJobTasks({ jobId: 'j1', slurm: view(['running', 'pending', 'pending']) });
    store.getState().onJobTasks({ jobId: 'other', slurm: view(['done']) });
    await settle();
    const jobs = store.getState().runs.jobs;
    expect(jobs.map((j) => j.jobId)).toEqual(['j1']);
    expect(jobs[0]?.slurm?.tasks.map((t) => t.state)).toEqual(['running', 'pending', 'pending']);
  });

  it('Run mix on Slurm checks with the executor: a refused one saves nothing and starts nothing', async () => {
    const { store, fake, files } = setup({ type: 'slurm', slurm: { cpus_per_task: 1, sbatch_args: [], logging_dir: '/elsewhere' } });
    await store.getState().loadExecutor();
    await store.getState().openRecipe('configs/demo.yaml');
    store.getState().setRecipeText('edited: true\n');
    expect(await store.getState().runRecipe('mix')).toBeNull();
    expect(fake.callsOf('jobs.check')).toEqual([{ kind: 'mix', configText: 'edited: true\n', executor: { type: 'slurm', cpus_per_task: 1, sbatch_args: [], logging_dir: '/elsewhere' } }]);
    expect(fake.callsOf('jobs.start')).toEqual([]);
    expect(files.get('configs/demo.yaml')).not.toBe('edited: true\n');
    expect(store.getState().runs.error).toMatch(/not started, nothing saved: .*outside the workspace/);
  });
});
