// A job on Slurm, inside the job process: the engine submits the array (launchOnSlurm, as `assay VERB -c CONFIG --executor slurm`), then the run is followed to its end.
import { relative, resolve } from 'node:path';
import type { ExecutorConfig, JobKind, SlurmRun } from '../../../shared/contract/index.js';
import type { ParsedArgs } from '../../engine/cli/args.js';
import { launchOnSlurm } from '../../engine/executor/launch.js';
import { cancelRun } from '../../engine/executor/cancel.js';
import { runStatus } from '../../engine/executor/status.js';
import { hostEntry } from '../launch-process.js';
import type { ExecuteContext, ExecuteResult } from './execute.js';
import type { JobPlan } from './plan.js';
import { relativeTo } from './slurm-view.js';
import { watchSlurmRun, type SlurmSource } from './slurm-watch.js';

/**
 * How each array task starts `assay`: this build's CLI (the TypeScript sources through tsx in development and
 * tests, `dist/engine/cli.js` when bundled). The job process's own script is the job runner, not the CLI, so
 * the engine's default (this process's argv) would be wrong. Only where the host runs on Node (browser mode,
 * development): the packaged app refuses Slurm jobs (slurm-accept.ts).
 */
export function taskCommand(): string[] {
  const entry = hostEntry('cli', '../engine/bin.ts');
  return [process.execPath, ...entry.execArgv, entry.modulePath];
}

export const slurmSource: SlurmSource = { status: (dir) => runStatus(dir), cancel: (dir) => cancelRun(dir, 'last') };

/** The folders a finished run wrote, as the local run names them (mix streams, the tokens destination, new documents); attributes go to the index instead. */
function outputsOf(plan: JobPlan, root: string): string[] {
  if (plan.kind === 'mix') return plan.mix.streams.flatMap((s) => (s.output.path ? [relativeTo(root, resolve(root, s.output.path))] : []));
  if (plan.kind === 'tokens') return [relativeTo(root, resolve(root, plan.tokens.destination))];
  if (plan.kind === 'warc') return [relativeTo(root, resolve(root, plan.warc.destination, 'documents'))];
  if (plan.kind === 'import') return [relativeTo(root, resolve(root, plan.import.destination, 'documents'))];
  return [];
}

/** Kinds whose finished run changed what the index holds (attributes, or new documents). */
const REINDEX: ReadonlySet<JobKind> = new Set(['tag', 'dedupe', 'minhash', 'decon', 'warc', 'import']);

export interface SlurmJob {
  kind: JobKind;
  root: string;
  /** Workspace-relative: the array tasks read the same file. */
  configPath: string;
  /** Its logging dir already decided (and confined) by the host. */
  executor: ExecutorConfig & { logging_dir: string };
}

export async function runOnSlurm(job: SlurmJob, plan: JobPlan, c: ExecuteContext & { onTasks: (v: SlurmRun) => void }, source: SlurmSource = slurmSource): Promise<ExecuteResult> {
  const started = performance.now();
  const args: ParsedArgs = { command: job.kind, options: new Map([['config', job.configPath]]), positionals: [] };
  const dir = resolve(job.root, job.executor.logging_dir);
  await launchOnSlurm(args, { ...job.executor, type: 'slurm' }, { cwd: job.root, command: taskCommand(), wait: false, print: c.log });
  const view = await watchSlurmRun({ root: job.root, dir, signal: c.signal, source, onTasks: c.onTasks, onProgress: c.onProgress, log: c.log });
  const arrays = view.tasks.filter((t) => t.task !== 'final').length;
  const ids = view.jobIds.length ? ` (Slurm job${view.jobIds.length > 1 ? 's' : ''} ${view.jobIds.join(', ')})` : '';
  const summary = `${arrays} task(s) done on Slurm${ids} in ${((performance.now() - started) / 1000).toFixed(1)} s; logs in ${relative(job.root, dir)}/logs`;
  return { summary, outputs: outputsOf(plan, job.root), reindex: REINDEX.has(plan.kind) };
}
