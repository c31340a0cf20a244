// A job start asking for Slurm: only the kinds the engine splits into arrays, its logging dir inside the workspace (one per config text by default).
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { executorConfig, SLURM_KINDS, type ExecutorConfig, type JobStart } from '../../../shared/contract/index.js';
import { HostError } from '../errors.js';
import { resolveInside } from '../paths.js';

export type SlurmExecutor = ExecutorConfig & { logging_dir: string };

/**
 * The logging dir when none is given: the engine resumes a run in the same dir (only unfinished tasks are
 * submitted, by the inputs' sizes and mtimes, not by the config), so an edited recipe must get its own dir
 * or it would "resume" into nothing to do. Keyed by config path, text and task count; the same run again resumes.
 */
export function defaultLoggingDir(kind: string, configPath: string, text: string, tasks: number | undefined): string {
  const key = createHash('sha256').update(JSON.stringify([configPath, text, tasks ?? null])).digest('hex').slice(0, 12);
  return `.assay/slurm/${kind}-${key}`;
}

/**
 * The packaged app's engine lives in app.asar, which no `node` on a cluster node can run (and the desktop
 * is seldom a Slurm submit host): there Slurm is refused with the way that works.
 */
export const PACKAGED_REFUSAL =
  'Slurm jobs start the assay CLI on the cluster, which the packaged app cannot provide: run `assay serve --workspace DIR` on a machine that submits to Slurm (the same workbench in a browser), or `assay VERB --executor slurm` there';

/** undefined: the job runs locally. Throws what the app must show for a start Slurm cannot take. */
export function slurmExecutor(root: string, req: JobStart, text: string, configPath: string | undefined, inElectron = process.versions.electron !== undefined): SlurmExecutor | undefined {
  if (req.executor === undefined) return undefined;
  const e = executorConfig.parse(req.executor);
  if (e.type !== 'slurm') return undefined;
  if (inElectron) throw new HostError('BAD_REQUEST', PACKAGED_REFUSAL, 'executor');
  if (!(SLURM_KINDS as readonly string[]).includes(req.kind)) {
    throw new HostError('BAD_REQUEST', `${req.kind} runs locally only; Slurm runs ${SLURM_KINDS.join(', ')}`, 'executor');
  }
  if (configPath === undefined) throw new HostError('BAD_REQUEST', `a ${req.kind} job on Slurm needs a config`, 'executor');
  const dir = e.logging_dir ?? defaultLoggingDir(req.kind, configPath, text, e.tasks);
  // Completions, logs and scripts are written there: like every path a job writes, it stays in the workspace.
  const abs = resolveInside(root, dir, 'executor.logging_dir');
  return { ...e, type: 'slurm', logging_dir: relative(root, abs) || '.' };
}
