// Which starts go to Slurm and where their logging dir is: per config text (an edited recipe starts afresh), inside the workspace, never from the packaged app.
import { beforeEach, describe, expect, it } from 'vitest';
import { scratchDir } from '../../engine/testing.js';
import { defaultLoggingDir, PACKAGED_REFUSAL, slurmExecutor } from './slurm-accept.js';

describe('slurmExecutor', () => {
  let root = '';
  beforeEach(() => {
    root = scratchDir();
  });
  const start = (executor: Record<string, unknown> | undefined, kind: 'mix' | 'index' = 'mix') => ({ kind, configPath: 'recipes/a.yaml', ...(executor && { executor }) });

  it('runs locally without an executor or with type local', () => {
    expect(slurmExecutor(root, start(undefined), 'x', 'recipes/a.yaml', false)).toBeUndefined();
    expect(slurmExecutor(root, start({ type: 'local', tasks: 4 }), 'x', 'recipes/a.yaml', false)).toBeUndefined();
  });

  it('applies the defaults and gives each config text its own logging dir (the same text and tasks: the same dir, so it resumes)', () => {
    const a = slurmExecutor(root, start({ type: 'slurm', tasks: 2 }), 'streams: 1', 'recipes/a.yaml', false);
    expect(a).toEqual({ type: 'slurm', tasks: 2, cpus_per_task: 1, sbatch_args: [], logging_dir: defaultLoggingDir('mix', 'recipes/a.yaml', 'streams: 1', 2) });
    expect(a?.logging_dir).toMatch(/^\.assay\/slurm\/mix-[0-9a-f]{12}$/);
    expect(slurmExecutor(root, start({ type: 'slurm', tasks: 2 }), 'streams: 1', 'recipes/a.yaml', false)?.logging_dir).toBe(a?.logging_dir);
    expect(slurmExecutor(root, start({ type: 'slurm', tasks: 2 }), 'streams: 2', 'recipes/a.yaml', false)?.logging_dir).not.toBe(a?.logging_dir);
    expect(slurmExecutor(root, start({ type: 'slurm', tasks: 3 }), 'streams: 1', 'recipes/a.yaml', false)?.logging_dir).not.toBe(a?.logging_dir);
    expect(slurmExecutor(root, start({ type: 'slurm', logging_dir: 'runs/./mine/' }), 'x', 'recipes/a.yaml', false)?.logging_dir).toBe('runs/mine');
  });

  it('refuses the packaged app, kinds Slurm cannot split and logging dirs outside the workspace', () => {
    expect(() => slurmExecutor(root, start({ type: 'slurm' }), 'x', 'recipes/a.yaml', true)).toThrow(PACKAGED_REFUSAL);
    expect(() => slurmExecutor(root, start({ type: 'slurm' }, 'index'), '', undefined, false)).toThrow(/index runs locally only/);
    expect(() => slurmExecutor(root, start({ type: 'slurm', logging_dir: '/tmp/elsewhere' }), 'x', 'recipes/a.yaml', false)).toThrow(expect.objectContaining({ code: 'FORBIDDEN', field: 'executor.logging_dir' }));
  });
});
