// Jobs on a Slurm cluster as the app sees them: where a job runs, the per-workspace executor settings, the array's per-task states.
import { z } from 'zod';
import { executorConfig } from '../executor/schema.js';

export { executorConfig };
export type { ExecutorConfig } from '../executor/schema.js';

/** The kinds the engine can split into an array job (workers/engine/executor/adapters.ts). */
export const SLURM_KINDS = ['tag', 'dedupe', 'minhash', 'mix', 'tokens', 'decon', 'warc', 'import'] as const;

/** What the Runs tab remembers per workspace (`.assay/executor.json`): the choice and the Slurm options last used. */
export const executorSettings = z
  .object({
    type: z.enum(['local', 'slurm']),
    slurm: executorConfig.omit({ type: true }),
  })
  .strict();
export type ExecutorSettings = z.infer<typeof executorSettings>;

export type SlurmTaskState = 'done' | 'running' | 'pending' | 'failed' | 'cancelled' | 'not submitted';

export interface SlurmTask {
  /** The array index, or the final step that runs once every task succeeded. */
  task: number | 'final';
  /** A later array stage's task (MinHash: `buckets`, one task per bucket); absent for the first array. */
  stage?: string;
  state: SlurmTaskState;
  /** How many input files the task reads. */
  inputCount: number;
  /** A failed or cancelled task's input files (at most 20: `inputCount` says how many there are). */
  inputs?: string[];
  /** The last lines of a failed or cancelled task's log. */
  tail?: string[];
  /** Its log file, relative to the workspace. */
  log?: string;
}

/** The array job of a Slurm job, as last polled (`assay jobs status`). */
export interface SlurmRun {
  /** The logging dir (completions, logs, scripts, run.json), relative to the workspace. */
  loggingDir: string;
  /** Slurm job ids: the array, then the final step. */
  jobIds: string[];
  tasks: SlurmTask[];
  counts: Record<SlurmTaskState, number>;
  finished: boolean;
  failed: boolean;
}
