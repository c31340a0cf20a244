// Messages between the host's job manager and a job process (one process per job, over its IPC channel).
import type { ErrorPayload, JobKind } from '../../../shared/contract/index.js';
import type { StageProgress } from './meter.js';

export type RunnerRequest =
  | { type: 'start'; kind: JobKind; root: string; configText: string; configPath: string }
  /** Abort through the engine's AbortSignal: outputs are only published by a complete run. */
  | { type: 'cancel' };

export type RunnerMessage =
  | { type: 'ready' }
  | { type: 'progress'; report: StageProgress }
  | { type: 'log'; line: string }
  | { type: 'done'; summary: string; outputs: string[]; indexedDocs?: number }
  | { type: 'error'; error: ErrorPayload };
