// Talking to Slurm: the sbatch script of an array, submission (chained with afterok), squeue, scancel.
import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { AssayError } from '../errors.js';
import { writeFileAtomic } from '../io/index.js';

/** Runs a Slurm client command; a missing binary or a refusal is an error naming the command and Slurm's words. */
export function slurmCommand(cmd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
      if (err === null) return resolve(stdout);
      const code = (err as NodeJS.ErrnoException).code;
      const why = code === 'ENOENT' ? `${cmd} is not installed or not on PATH (the Slurm client tools are needed for --executor slurm)` : `${cmd} ${args.join(' ')} failed: ${(stderr || err.message).trim()}`;
      reject(new AssayError('IO', why));
    });
  });
}

const shellQuote = (s: string): string => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** `0-3`, or `1,3,5` for a resubmission of some tasks; `%K` caps how many run at once. */
export function arraySpec(tasks: readonly number[], maxConcurrent: number | undefined): string {
  const sorted = [...tasks].sort((a, b) => a - b);
  const contiguous = sorted.every((t, i) => i === 0 || t === (sorted[i - 1] as number) + 1);
  const list = contiguous && sorted.length > 1 ? `${sorted[0]}-${sorted.at(-1)}` : sorted.join(',');
  return maxConcurrent ? `${list}%${maxConcurrent}` : list;
}

export interface ScriptSpec {
  name: string;
  /** null: a single job (the final step). */
  array: string | null;
  log: string;
  cwd: string;
  command: string[];
  executor: ExecutorConfig;
}

export function sbatchScript(s: ScriptSpec): string {
  const e = s.executor;
  // Whatever the caller checked: a line break in a value would become a command of its own in the script.
  for (const v of [e.partition, e.mem, e.time, e.qos, e.account, e.env_command, ...e.sbatch_args, s.log, s.name]) {
    if (v !== undefined && /[\r\n\0]/.test(v)) throw new AssayError('CONFIG', `a Slurm option must be one line, got ${JSON.stringify(v)}`, { field: 'executor' });
  }
  const lines = ['#!/bin/bash', `#SBATCH --job-name=${s.name}`];
  if (s.array !== null) lines.push(`#SBATCH --array=${s.array}`);
  lines.push(`#SBATCH --output=${s.log}`, `#SBATCH --cpus-per-task=${e.cpus_per_task}`);
  if (e.partition) lines.push(`#SBATCH --partition=${e.partition}`);
  if (e.mem) lines.push(`#SBATCH --mem=${e.mem}`);
  if (e.time) lines.push(`#SBATCH --time=${e.time}`);
  if (e.qos) lines.push(`#SBATCH --qos=${e.qos}`);
  if (e.account) lines.push(`#SBATCH --account=${e.account}`);
  for (const a of e.sbatch_args) lines.push(a.startsWith('#SBATCH') ? a : `#SBATCH ${a}`);
  lines.push('set -eo pipefail', `cd ${shellQuote(s.cwd)}`);
  if (e.env_command) lines.push(e.env_command);
  lines.push(`exec ${s.command.map(shellQuote).join(' ')}`);
  return lines.join('\n') + '\n';
}

/** Writes the script under `<dir>/scripts/` and submits it; returns the job id. */
export async function submit(dir: string, file: string, script: string, dependency?: string): Promise<string> {
  const path = join(dir, 'scripts', file);
  await mkdir(join(dir, 'logs'), { recursive: true });
  await writeFileAtomic(path, script, { mkdir: true });
  await chmod(path, 0o755);
  const out = await slurmCommand('sbatch', ['--parsable', ...(dependency ? [`--dependency=afterok:${dependency}`, '--kill-on-invalid-dep=yes'] : []), path]);
  const id = out.trim().split(';')[0] ?? '';
  if (!/^\d+$/.test(id)) throw new AssayError('IO', `sbatch printed no job id: '${out.trim()}'`, { file: path });
  return id;
}

/** Jobs still known to squeue, by `ARRAYJOB_TASK` (array tasks) or `JOB` (single jobs): PENDING, RUNNING, … */
export async function queued(jobIds: readonly string[]): Promise<Map<string, string>> {
  if (jobIds.length === 0) return new Map();
  const out = await slurmCommand('squeue', ['-h', '-r', '-j', jobIds.join(','), '-o', '%F %K %T']).catch((e: unknown) => {
    // squeue refuses ids it no longer knows (every job finished long ago): nothing is queued.
    if (/Invalid job id/i.test((e as Error).message)) return '';
    throw e;
  });
  return parseSqueue(out);
}

export function parseSqueue(out: string): Map<string, string> {
  const into = new Map<string, string>();
  for (const line of out.split('\n')) {
    const [job, task, state] = line.trim().split(/\s+/);
    if (job === undefined || task === undefined || state === undefined) continue;
    into.set(/^\d+$/.test(task) ? `${job}_${task}` : job, state);
  }
  return into;
}

export const cancelJobs = async (jobIds: readonly string[]): Promise<void> => {
  if (jobIds.length > 0) await slurmCommand('scancel', [...jobIds]);
};
