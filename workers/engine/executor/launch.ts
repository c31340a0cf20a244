// `assay VERB … --executor slurm`: plan the array, check it against an earlier partial run, submit what is unfinished.
import { resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { ExecutorConfig } from '../../../shared/executor/schema.js';
import { UsageError, type ParsedArgs } from '../cli/args.js';
import { AssayError } from '../errors.js';
import { ADAPTERS } from './adapters.js';
import { argvOf } from './settings.js';
import { sbatchScript, submit, arraySpec } from './slurm.js';
import { doneTasks, readRun, RUN_SCHEMA, validCompletion, writeRun, type RunPlan, type StampCache } from './state.js';
import { runStatus, waitForRun } from './status.js';

export interface LaunchOptions {
  cwd?: string;
  /** How a task starts `assay` (default: this process's node, its flags and script — the same build that launched). */
  command?: string[];
  /** Block until the run ends and report it (exit 1 when a task failed). */
  wait?: boolean;
  signal?: AbortSignal;
  print?: (line: string) => void;
}

export function defaultCommand(): string[] {
  const script = process.argv[1];
  if (script === undefined) throw new AssayError('INTERNAL', 'cannot tell how this assay was started (no script path)');
  // `--import tsx` resolves from the task's working directory, which need not hold node_modules: make it absolute.
  const from = createRequire(resolve(script));
  const flags = process.execArgv.map((a, i) => (process.execArgv[i - 1] === '--import' && !a.startsWith('.') && !a.startsWith('/') && !a.startsWith('file:') ? from.resolve(a) : a));
  return [process.execPath, ...flags, resolve(script)];
}

const sameArgv = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** Returns the exit code: 0 submitted (or finished, with --wait), 1 a task failed. */
export async function launchOnSlurm(args: ParsedArgs, executor: ExecutorConfig, opts: LaunchOptions = {}): Promise<number> {
  const verb = args.command ?? '';
  const adapter = ADAPTERS[verb];
  if (!adapter) throw new UsageError(`--executor slurm runs ${Object.keys(ADAPTERS).join(', ')}; '${verb}' runs locally only (see "Running on a cluster" in the README)`);
  const cwd = resolve(opts.cwd ?? process.cwd());
  const dir = resolve(cwd, executor.logging_dir ?? `.assay-slurm/${verb}`);
  const print = opts.print ?? ((l: string) => process.stdout.write(`${l}\n`));
  const argv = argvOf(args);
  const planned = await adapter.plan(args, executor, cwd, dir);
  const earlier = await readRun(dir);
  let run: RunPlan;
  if (earlier === null) {
    run = { schema: RUN_SCHEMA, version: 1, verb, argv, cwd, tasks: planned.tasks, ...(planned.stages ? { stages: planned.stages } : {}), data: planned.data, hasFinal: planned.hasFinal, submissions: [], created: new Date().toISOString() };
  } else {
    if (earlier.verb !== verb || !sameArgv(earlier.argv, argv) || earlier.cwd !== cwd) {
      throw new AssayError('CONFIG', `this logging dir holds a run of \`assay ${earlier.argv.join(' ')}\` (from ${earlier.cwd}); this is a different command — give it its own --logging-dir`, { file: dir });
    }
    const done = await doneTasks(dir, earlier.tasks);
    if (earlier.tasks.length !== planned.tasks.length && done.length > 0) {
      throw new AssayError(
        'CONFIG',
        `${done.length} of this run's ${earlier.tasks.length} tasks have finished; ${planned.tasks.length} tasks would assign the inputs differently and mix old and new outputs. ` +
          `Resubmit with --tasks ${earlier.tasks.length}, or remove ${dir} to start over`,
        { file: dir },
      );
    }
    const still = (await runStatus(dir)).tasks.filter((t) => t.state === 'running' || t.state === 'pending');
    if (still.length > 0) throw new AssayError('CONFIG', `${still.length} task(s) of this run are still queued or running; wait for them or \`assay jobs cancel ${dir}\` first`, { file: dir });
    run = { ...earlier, tasks: planned.tasks, ...(planned.stages ? { stages: planned.stages } : {}), data: planned.data };
  }
  const cache: StampCache = new Map();
  const done = new Set(await doneTasks(dir, run.tasks, undefined, cache));
  const todo = run.tasks.map((_, i) => i).filter((i) => !done.has(i));
  const stageTodo: { name: string; todo: number[] }[] = [];
  for (const st of run.stages ?? []) {
    const finished = new Set(await doneTasks(dir, st.tasks, st.name, cache));
    stageTodo.push({ name: st.name, todo: st.tasks.map((_, i) => i).filter((i) => !finished.has(i)) });
  }
  const finalDone = run.hasFinal && (await validCompletion(dir, 'final', run.tasks.flatMap((t) => t.inputs), undefined, cache)) !== null;
  if (todo.length === 0 && stageTodo.every((s) => s.todo.length === 0) && (finalDone || !run.hasFinal)) {
    print(`all ${run.tasks.length} task(s) of ${dir} are complete; nothing to submit`);
    return 0;
  }
  const command = [...(opts.command ?? defaultCommand()), 'jobs'];
  let jobId: string | null = null;
  if (todo.length > 0) {
    const script = sbatchScript({ name: `assay-${verb}`, array: arraySpec(todo, executor.max_concurrent), log: `${dir}/logs/task-%a.log`, cwd, command: [...command, 'task', dir], executor });
    jobId = await submit(dir, `array-${run.submissions.length}.sbatch`, script);
  }
  // Each later stage waits for the one before (afterok), the final step for the last one submitted.
  let last = jobId;
  const stageJobs: NonNullable<RunPlan['submissions'][number]['stageJobs']> = [];
  for (const st of stageTodo) {
    if (st.todo.length === 0) continue;
    const script = sbatchScript({ name: `assay-${verb}-${st.name}`, array: arraySpec(st.todo, executor.max_concurrent), log: `${dir}/logs/${st.name}-task-%a.log`, cwd, command: [...command, 'stage-task', dir, st.name], executor });
    last = await submit(dir, `${st.name}-${run.submissions.length}.sbatch`, script, last ?? undefined);
    stageJobs.push({ name: st.name, jobId: last, tasks: st.todo });
  }
  let finalJobId: string | null = null;
  if (run.hasFinal) {
    const script = sbatchScript({ name: `assay-${verb}-final`, array: null, log: `${dir}/logs/final.log`, cwd, command: [...command, 'finalize', dir], executor: { ...executor, max_concurrent: undefined } });
    finalJobId = await submit(dir, `final-${run.submissions.length}.sbatch`, script, last ?? undefined);
  }
  run.submissions.push({ jobId: jobId ?? '', tasks: todo, ...(stageJobs.length ? { stageJobs } : {}), finalJobId, at: new Date().toISOString() });
  await writeRun(dir, run);
  print(
    `submitted ${todo.length} of ${run.tasks.length} task(s)${jobId ? ` as array job ${jobId} (--array=${arraySpec(todo, executor.max_concurrent)})` : ''}` +
      `${stageJobs.map((j) => `, ${j.name} stage: ${j.tasks.length} task(s) as array job ${j.jobId} after them`).join('')}` +
      `${finalJobId ? `, final step job ${finalJobId} after them` : ''}; ${done.size ? `${done.size} already complete; ` : ''}watch with: assay jobs status ${dir}`,
  );
  if (!opts.wait) return 0;
  const status = await waitForRun(dir, opts.signal);
  for (const l of status.lines) print(l);
  return status.failed ? 1 : 0;
}
