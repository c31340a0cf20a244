// Jobs as the app sees them: what can be launched, progress events and terminal states (DESIGN §5).
import { z } from 'zod';
import { executorConfig, type SlurmRun } from './slurm.js';

/**
 * `preview`: a recipe's exact figures on every indexed document (the app's "Exact figures" for a sampled preview);
 * `decon`: eval-set n-gram overlap as attributes (`assay decon -c`), read by the Contamination tab.
 */
export const jobKind = z.enum(['tag', 'dedupe', 'minhash', 'mix', 'tokens', 'index', 'import', 'warc', 'preview', 'decon']);
export type JobKind = z.infer<typeof jobKind>;

/** A job is launched with a config file (path inside the workspace) or inline config text (YAML/JSON). */
export const jobStart = z
  .object({
    kind: jobKind,
    configPath: z.string().min(1).optional(),
    configText: z.string().min(1).optional(),
    /** Where it runs: locally (the default) or, for tag/dedupe/minhash/mix/tokens, as a Slurm array job. */
    executor: executorConfig.optional(),
  })
  .strict()
  .refine((v) => v.kind === 'index' || v.configPath !== undefined || v.configText !== undefined, {
    message: 'a tag/dedupe/minhash/mix/tokens/import/warc/preview/decon job needs configPath or configText',
  });
/** As the app sends it (the host applies the executor's defaults). */
export type JobStart = z.input<typeof jobStart>;

export type JobState = 'running' | 'done' | 'failed' | 'cancelled';

export interface JobProgress {
  jobId: string;
  done: number;
  total: number;
  unit: string;
  /** Units per second over the recent window; 0 until measurable. */
  rate: number;
  /** Seconds, when known. */
  eta?: number;
}

export interface JobInfo {
  jobId: string;
  kind: JobKind;
  state: JobState;
  startedAt: string;
  endedAt?: string;
  /** Config file used, relative to the workspace. */
  config?: string;
  progress?: JobProgress;
  /** One-paragraph outcome, e.g. "kept 812 of 1,000 documents → output/". */
  summary?: string;
  error?: string;
  /** Folders the job wrote (relative to the workspace). */
  outputs: string[];
  /** A job run on Slurm: its array's tasks as last polled. */
  slurm?: SlurmRun;
}

/** A Slurm job's tasks changed state (polled about once a second while it runs). */
export interface JobTasks {
  jobId: string;
  slurm: SlurmRun;
}

export interface JobLog {
  jobId: string;
  line: string;
}
