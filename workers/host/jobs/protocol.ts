// Messages between the host's job manager and a job process (one process per job, over its IPC channel).
import type { ErrorPayload, ExecutorConfig, JobKind, SlurmRun } from '../../../shared/contract/index.js';
import type { StageProgress } from './meter.js';

export type RunnerRequest =
  /** With `executor`, the job submits a Slurm array and follows it (its logging dir decided and confined by the host). */
  | { type: 'start'; kind: JobKind; root: string; configText: string; configPath: string; executor?: ExecutorConfig & { logging_dir: string } }
  /** Abort through the engine's AbortSignal: outputs are only published by a complete run. */
  | { type: 'cancel' };

export type RunnerMessage =
  | { type: 'ready' }
  | { type: 'progress'; report: StageProgress }
  | { type: 'log'; line: string }
  /** A Slurm job's per-task states, whenever they change. */
  | { type: 'tasks'; slurm: SlurmRun }
  | { type: 'done'; summary: string; outputs: string[]; indexedDocs?: number }
  | { type: 'error'; error: ErrorPayload };
