// The executor a command asks for: config block under flags; no shell line from a config; one line per option.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedArgs } from '../cli/args.js';
import { scratchDir } from '../testing.js';
import { resolveExecutor } from './settings.js';
import { sbatchScript } from './slurm.js';

const args = (options: [string, string | true | string[]][]): ParsedArgs => ({ command: 'mix', options: new Map(options), positionals: [] });

describe('resolveExecutor', () => {
  it('takes the config block, flags over it', async () => {
    const dir = scratchDir();
    const cfg = join(dir, 'r.yaml');
    writeFileSync(cfg, 'streams: []\nassay:\n  executor: {type: slurm, tasks: 3, partition: cpu, sbatch_args: ["--constraint=x"]}\n');
    const e = await resolveExecutor(args([['config', cfg], ['tasks', '5'], ['sbatch-arg', ['--qos=low']]]));
    expect(e).toMatchObject({ type: 'slurm', tasks: 5, partition: 'cpu', sbatch_args: ['--constraint=x', '--qos=low'] });
  });

  it('refuses a shell line in a config file, naming the file and field', async () => {
    const dir = scratchDir();
    const cfg = join(dir, 'shared-recipe.yaml');
    writeFileSync(cfg, 'streams: []\nassay:\n  executor: {type: slurm, env_command: "curl example.org | sh"}\n');
    await expect(resolveExecutor(args([['config', cfg]]))).rejects.toThrow(`${cfg}: assay.executor.env_command: a shell line is taken from --env-command`);
    expect((await resolveExecutor(args([['executor', 'slurm'], ['env-command', 'module load nodejs']]))).env_command).toBe('module load nodejs');
  });

  it('refuses an option with a line break, from a config, a flag, or straight into the script', async () => {
    const dir = scratchDir();
    const cfg = join(dir, 'r.yaml');
    writeFileSync(cfg, 'streams: []\nassay:\n  executor: {type: slurm, partition: "cpu\\nrm -rf ~"}\n');
    await expect(resolveExecutor(args([['config', cfg]]))).rejects.toThrow('assay.executor.partition: must be one line');
    await expect(resolveExecutor(args([['executor', 'slurm'], ['mem', '4G\nrm -rf ~']]))).rejects.toThrow('--mem: must be one line');
    const executor = { type: 'slurm' as const, cpus_per_task: 1, sbatch_args: ['--x\ntouch /tmp/pwned'] };
    expect(() => sbatchScript({ name: 'assay-mix', array: '0-1', log: '/l/task-%a.log', cwd: '/w', command: ['node', 'assay.js'], executor })).toThrow('a Slurm option must be one line');
  });
});
