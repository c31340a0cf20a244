// Per-workspace executor choice of the Runs tab (`.assay/executor.json`): local or Slurm, and the Slurm options last used.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { executorSettings, type ExecutorSettings } from '../../shared/contract/index.js';
import { writeFileAtomic } from '../engine/io/index.js';

export const executorSettingsFile = (root: string): string => join(root, '.assay', 'executor.json');

const DEFAULTS: ExecutorSettings = { type: 'local', slurm: { cpus_per_task: 1, sbatch_args: [] } };

/** The saved choice; local when the file is missing or not valid (a broken file never blocks a run). */
export function readExecutorSettings(root: string): ExecutorSettings {
  try {
    const parsed = executorSettings.safeParse(JSON.parse(readFileSync(executorSettingsFile(root), 'utf8')));
    return parsed.success ? parsed.data : structuredClone(DEFAULTS);
  } catch {
    return structuredClone(DEFAULTS);
  }
}

export async function writeExecutorSettings(root: string, s: ExecutorSettings): Promise<ExecutorSettings> {
  await writeFileAtomic(executorSettingsFile(root), `${JSON.stringify(s, null, 2)}\n`, { mkdir: true });
  return s;
}
